import type { Logger, RotationCounts } from '@checkline/core';
import { rotateInBatches } from '@checkline/core';
import type { Database } from '@checkline/db';
import { asc, eq, gt } from 'drizzle-orm';
import type { SecretSealer } from './config-secrets.ts';
import { ConfigSecretError, resealConfigSecrets } from './config-secrets.ts';
import { healthChecks } from './db/schema.ts';

const TABLE = 'healthcheck.health_checks';

/** The counts of one rotation, shaped as the notification plugin's. */
export type SecretRotationResult = RotationCounts;

/** Reseals one check's secrets in its own short transaction, the row locked; how many changed. */
async function rotateCheck(db: Database, checkId: string, sealer: SecretSealer): Promise<number> {
  return await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ config: healthChecks.config })
      .from(healthChecks)
      .where(eq(healthChecks.id, checkId))
      .for('update');
    if (!row) return 0;
    const { config, resealed } = resealConfigSecrets(row.config, checkId, sealer);
    // `updatedAt` stays: it tells people when the check was edited, and this changes nothing
    // they can see.
    if (resealed > 0)
      await tx.update(healthChecks).set({ config }).where(eq(healthChecks.id, checkId));
    return resealed;
  });
}

/**
 * Re-encrypts the health checks' sealed config secrets (the postgres password) under the
 * sealer's current key, check by check in id order; values already under it are left alone, so
 * a second run changes nothing. A check with a value no key opens at its place is left as it is,
 * logged by its id (never the value) and counted in `failed`; the run goes on.
 */
export async function rotateHealthCheckSecrets(
  db: Database,
  sealer: SecretSealer,
  logger: Logger,
  batchSize = 100,
): Promise<SecretRotationResult> {
  return await rotateInBatches<{ id: string }>({
    table: TABLE,
    logger,
    batchSize,
    batchAfter: (after, limit) =>
      db
        .select({ id: healthChecks.id })
        .from(healthChecks)
        .where(after === undefined ? undefined : gt(healthChecks.id, after.id))
        .orderBy(asc(healthChecks.id))
        .limit(limit),
    rotateRow: ({ id }) => rotateCheck(db, id, sealer),
    skipped: (error, { id }) =>
      error instanceof ConfigSecretError
        ? { healthCheckId: id, problem: error.message }
        : undefined,
  });
}
