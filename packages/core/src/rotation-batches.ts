import type { Logger } from './logger.ts';

/** The counts of re-encrypting one table's secrets (or several tables', summed). */
export interface RotationCounts {
  /** Rows read. */
  rows: number;
  /** Values re-encrypted under the current key. */
  reencrypted: number;
  /** Rows with at least one re-encrypted value. */
  rowsChanged: number;
  /** Rows left as they were because a value in them opens under no key (each one logged). */
  failed: number;
}

export const noRotation = (): RotationCounts => ({
  rows: 0,
  reencrypted: 0,
  rowsChanged: 0,
  failed: 0,
});

/**
 * Walks one table in key order, `batchSize` rows at a time, re-encrypting each row by
 * `rotateRow` (its own short transaction; answers how many values changed). A row whose error
 * `skipped` recognises (a value no key opens) is logged with the fields it gives, never the
 * value, counted in `failed` and left as it is; any other error ends the run. Progress is
 * logged after every full batch, and the table's counts at the end.
 */
export async function rotateInBatches<Row>(options: {
  table: string;
  logger: Logger;
  batchSize: number;
  batchAfter(after: Row | undefined, limit: number): Promise<Row[]>;
  rotateRow(row: Row): Promise<number>;
  skipped(error: unknown, row: Row): Record<string, unknown> | undefined;
}): Promise<RotationCounts> {
  const { table, logger, batchSize } = options;
  const counts = noRotation();
  let after: Row | undefined;
  for (;;) {
    const batch = await options.batchAfter(after, batchSize);
    for (const row of batch) {
      counts.rows += 1;
      let reencrypted: number;
      try {
        reencrypted = await options.rotateRow(row);
      } catch (error) {
        const fields = options.skipped(error, row);
        if (!fields) throw error;
        counts.failed += 1;
        logger.warn({ table, ...fields }, 'secret rotation: row skipped');
        continue;
      }
      counts.reencrypted += reencrypted;
      if (reencrypted > 0) counts.rowsChanged += 1;
    }
    if (batch.length < batchSize) break;
    after = batch.at(-1);
    logger.info({ table, ...counts }, 'secret rotation in progress');
  }
  logger.info({ table, ...counts }, 'secret rotation: table done');
  return counts;
}
