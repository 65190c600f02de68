import type { Database } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { lateStarts, resultRollups, results } from './db/schema.ts';

/** Rows deleted per statement, so a long backlog never holds one huge delete. */
const PURGE_CHUNK = 5_000;

export interface PurgeCutoffs {
  /** Raw results checked before this go, and late starts given back before it. */
  resultsBefore: Date;
  /** Hourly and daily rollups of buckets starting before this go. */
  rollupsBefore: Date;
}

/** Deletes, chunk by chunk, rows of `table` whose `column` is before `cutoff`; how many. */
async function purgeChunked(
  db: Database,
  table: typeof results | typeof resultRollups | typeof lateStarts,
  column: string,
  cutoff: Date,
  chunk: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    // ctid addresses the rows found without a second look-up by key.
    const rows = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
        delete from ${table} where ctid = any(array(
          select ctid from ${table} where ${sql.identifier(column)} < ${cutoff.toISOString()}::timestamptz
          limit ${chunk}))
        returning 1)
      select count(*)::int as n from gone`,
    );
    const deleted = Number(rows[0]?.n ?? 0);
    total += deleted;
    if (deleted < chunk) return total;
  }
}

/**
 * Deletes raw results (and late starts, kept as long) and rollups past their retention in chunks
 * of `chunk` rows (one short statement each); how many rows in all. Rollups outlive the results
 * they summarise.
 */
export async function purgeHistory(
  db: Database,
  cutoffs: PurgeCutoffs,
  chunk = PURGE_CHUNK,
): Promise<number> {
  const purgedResults = await purgeChunked(db, results, 'checked_at', cutoffs.resultsBefore, chunk);
  const purgedLateStarts = await purgeChunked(db, lateStarts, 'at', cutoffs.resultsBefore, chunk);
  const purgedRollups = await purgeChunked(
    db,
    resultRollups,
    'bucket_start',
    cutoffs.rollupsBefore,
    chunk,
  );
  return purgedResults + purgedLateStarts + purgedRollups;
}
