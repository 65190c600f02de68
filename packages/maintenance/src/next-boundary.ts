import type { Database } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { windows } from './db/schema.ts';

/**
 * The earliest start or end not yet announced (possibly already past), or undefined when every
 * window's transitions are announced: when the ticker should look next.
 */
export async function nextBoundary(db: Database): Promise<Date | undefined> {
  const [row] = await db
    .select({
      at: sql<string | null>`least(
        (select min(${windows.startAt}) from ${windows} where ${windows.startedNotifiedAt} is null),
        (select min(${windows.endAt}) from ${windows} where ${windows.endedNotifiedAt} is null)
      )`,
    })
    .from(sql`(select 1) as one`);
  return row?.at ? new Date(row.at) : undefined;
}
