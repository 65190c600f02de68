import { and, asc, desc, getTableColumns, sql } from 'drizzle-orm';
import type { InferSelectModel, SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database.ts';

/** What a key column holds, so a key read back from a client can be checked before it is cast. */
export type KeyKind = 'text' | 'uuid' | 'timestamp';

/**
 * A total order over a list's rows by key columns, for keyset pages: a page reads `limit + 1`
 * rows strictly after the last key of the previous page, so rows written or deleted meanwhile
 * never shift a page (as an offset would). The last column must make the key unique.
 */
export interface KeysetOrder {
  readonly kinds: readonly KeyKind[];
  readonly orderBy: readonly SQL[];
  /** Selected beside the row: its key as JSON text, timestamps in full (microsecond) precision. */
  readonly key: SQL<string>;
  /** Rows strictly after `key` in this order; `undefined` (no condition) for the first page. */
  after(key: readonly string[] | undefined): SQL | undefined;
  /** The first `limit` of `limit + 1` rows, and the key of the last one when more follow. */
  split<T extends { pageKey: string }>(
    rows: readonly T[],
    limit: number,
  ): { rows: T[]; lastKey: string[] | null };
}

function kindOf(column: PgColumn): KeyKind {
  const type = column.getSQLType();
  if (type === 'uuid') return 'uuid';
  if (/^(text|varchar(\(\d+\))?)$/.test(type)) return 'text';
  if (/^timestamp( \(\d\))? with time zone$/.test(type)) return 'timestamp';
  throw new Error(`Column ${column.name} (${type}) cannot be a page key`);
}

export function keysetOrder(
  columns: readonly [PgColumn, ...PgColumn[]],
  direction: 'asc' | 'desc' = 'asc',
): KeysetOrder {
  const kinds = columns.map(kindOf);
  const [leading] = columns;
  const strictly = direction === 'asc' ? sql.raw('>') : sql.raw('<');
  const orAtBound = direction === 'asc' ? sql.raw('>=') : sql.raw('<=');
  const param = (value: string, column: PgColumn) => sql`${value}::${sql.raw(column.getSQLType())}`;
  return {
    kinds,
    orderBy: columns.map((column) => (direction === 'asc' ? asc(column) : desc(column))),
    key: sql<string>`json_build_array(${sql.join([...columns], sql`, `)})::text`,
    after(key) {
      if (key === undefined) return undefined;
      const values = columns.map((column, i) => param(key[i]!, column));
      const row = sql`(${sql.join([...columns], sql`, `)}) ${strictly} (${sql.join(values, sql`, `)})`;
      // The bound on the leading column alone lets an index on it (or led by it) serve the page.
      return sql`${leading} ${orAtBound} ${values[0]} and ${row}`;
    },
    split(rows, limit) {
      if (rows.length <= limit) return { rows: [...rows], lastKey: null };
      const taken = rows.slice(0, limit);
      const last = JSON.parse(taken.at(-1)!.pageKey) as unknown[];
      return { rows: taken, lastKey: last.map(String) };
    },
  };
}

/** A row of `T` read for a page, with its key. */
export type KeysetRow<T extends PgTable> = InferSelectModel<T> & { pageKey: string };

/**
 * Up to `limit + 1` rows of one table matching `where`, in `order`, strictly after `after` (the
 * condition from {@link KeysetOrder.after}) and then `offset` rows on.
 */
export async function selectKeysetRows<T extends PgTable>(
  db: Database,
  table: T,
  order: KeysetOrder,
  page: { where?: SQL | undefined; after?: SQL | undefined; limit: number; offset?: number },
): Promise<KeysetRow<T>[]> {
  const rows = await db
    .select({ ...getTableColumns(table as PgTable), pageKey: order.key })
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it: drizzle's generic table types
    .from(table as PgTable)
    .where(and(page.where, page.after))
    .orderBy(...order.orderBy)
    .limit(page.limit + 1)
    .offset(page.offset ?? 0);
  return rows as KeysetRow<T>[];
}
