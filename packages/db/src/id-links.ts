import { asc, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database.ts';
import { prepared } from './prepared.ts';

/**
 * A join table linking one owner row (a window, an incident) to many ids kept by another plugin
 * (catalog systems): read the ids of many owners in one prepared query, replace one owner's set.
 */
export function idLinks<
  TTable extends PgTable,
  TOwner extends keyof TTable & string,
  TLinked extends keyof TTable & string,
>(table: TTable, ownerKey: TOwner, linkedKey: TLinked, statementName: string) {
  const owner = table[ownerKey] as unknown as PgColumn;
  const linked = table[linkedKey] as unknown as PgColumn;
  const selectLinks = prepared((db) =>
    db
      .select({ owner, linked })
      .from(table as PgTable)
      .where(sql`${owner} = any(${sql.placeholder('ids')}::uuid[])`)
      .orderBy(asc(linked))
      .prepare(statementName),
  );

  return {
    /** The sorted linked ids of each owner in `ownerIds` (an empty list for owners without any). */
    async byOwner(db: Database, ownerIds: readonly string[]): Promise<Map<string, string[]>> {
      const links = new Map<string, string[]>(ownerIds.map((id) => [id, []]));
      if (ownerIds.length === 0) return links;
      const rows = await selectLinks(db).execute({ ids: [...ownerIds] });
      for (const row of rows) links.get(row.owner as string)?.push(row.linked as string);
      return links;
    },

    /** Makes `linkedIds` (duplicates ignored) the whole set of `ownerId`'s links. */
    async replace(db: Database, ownerId: string, linkedIds: readonly string[]): Promise<void> {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it: drizzle's generic table types
      await db.delete(table as PgTable).where(eq(owner, ownerId));
      const unique = [...new Set(linkedIds)];
      if (unique.length === 0) return;
      const rows = unique.map((id) => ({ [ownerKey]: ownerId, [linkedKey]: id }));
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it: drizzle's generic table types
      await db.insert(table as PgTable).values(rows as never);
    },
  };
}
