import type { Database } from '@checkline/db';
import { prepared } from '@checkline/db';
import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { healthChecks, results, systemStatuses } from './db/schema.ts';
import { unhealthyDependency } from './dependencies/store.ts';
import type { MaintenanceLookup } from './maintenance.ts';
import type { FailingCheck, HealthStatusChange, SystemHealthStatus } from './schemas.ts';
import { toResult } from './service.ts';
import { deriveHealthStatus } from './status.ts';
import { lateSql } from './lateness.ts';

const latestResult = prepared((db) => {
  const latest = db
    .select()
    .from(results)
    .where(eq(results.healthCheckId, healthChecks.id))
    .orderBy(desc(results.checkedAt), desc(results.id))
    .limit(1)
    .as('latest');
  return db
    .select({
      healthCheckId: healthChecks.id,
      systemId: healthChecks.systemId,
      name: healthChecks.name,
      alertStatus: healthChecks.alertStatus,
      latest: {
        id: latest.id,
        healthCheckId: latest.healthCheckId,
        status: latest.status,
        latencyMs: latest.latencyMs,
        message: latest.message,
        dueAt: latest.dueAt,
        checkedAt: latest.checkedAt,
        lagMs: latest.lagMs,
        queueWaitMs: latest.queueWaitMs,
        pending: latest.pending,
      },
      late: lateSql(latest.lagMs),
    })
    .from(healthChecks)
    .leftJoinLateral(latest, sql`true`)
    .where(sql`${healthChecks.systemId} = any(${sql.placeholder('systemIds')}::uuid[])`)
    .orderBy(asc(healthChecks.systemId), asc(healthChecks.name))
    .prepare('healthcheck_latest_results');
});

/**
 * The health of each system right now, in the order given: one query for the checks and their
 * latest results, one call to the maintenance plugin, however many systems.
 */
export async function readSystemStatuses(
  db: Database,
  systemIds: readonly string[],
  inMaintenance: MaintenanceLookup,
): Promise<SystemHealthStatus[]> {
  if (systemIds.length === 0) return [];
  const [rows, maintained] = await Promise.all([
    latestResult(db).execute({ systemIds: [...systemIds] }),
    inMaintenance(db, systemIds),
  ]);
  const checksBySystem = new Map<string, SystemHealthStatus['checks']>(
    systemIds.map((id) => [id, []]),
  );
  for (const row of rows) {
    checksBySystem.get(row.systemId)?.push({
      healthCheckId: row.healthCheckId,
      name: row.name,
      alertStatus: row.alertStatus,
      latest: row.latest ? toResult(row.latest) : null,
      late: row.late,
    });
  }
  return systemIds.map((systemId) => {
    const checks = checksBySystem.get(systemId) ?? [];
    // Outcomes that reached their thresholds; a check with none yet is left out, as if never run.
    const outcomes = checks.flatMap((check) => (check.alertStatus ? [check.alertStatus] : []));
    return {
      systemId,
      status: deriveHealthStatus(outcomes, maintained.has(systemId)),
      checks,
    };
  });
}

const worstFirst = { fail: 0, warn: 1, pass: 2 } as const;

/** The checks of `status` whose latest result is not healthy, worst first, with their types. */
async function failingChecksOf(db: Database, status: SystemHealthStatus): Promise<FailingCheck[]> {
  const failing = status.checks.flatMap((check) =>
    check.latest && check.latest.status !== 'pass' ? [{ ...check, latest: check.latest }] : [],
  );
  if (failing.length === 0) return [];
  const types = new Map(
    (
      await db
        .select({ id: healthChecks.id, type: healthChecks.type })
        .from(healthChecks)
        .where(
          inArray(
            healthChecks.id,
            failing.map((check) => check.healthCheckId),
          ),
        )
    ).map((row) => [row.id, row.type]),
  );
  return failing
    .sort((a, b) => worstFirst[a.latest.status] - worstFirst[b.latest.status])
    .map((check) => ({
      healthCheckId: check.healthCheckId,
      name: check.name,
      type: types.get(check.healthCheckId) ?? 'unknown',
      status: check.latest.status,
      message: check.latest.message,
      latencyMs: check.latest.latencyMs,
      checkedAt: check.latest.checkedAt,
    }));
}

/**
 * Recomputes a system's stored status under a lock on its row, so concurrent writers see each
 * other's results and a change is reported by exactly one of them. Call inside a transaction;
 * publish the change only once it has committed.
 */
export async function recomputeSystemStatus(
  tx: Database,
  systemId: string,
  at: Date,
  inMaintenance: MaintenanceLookup,
): Promise<HealthStatusChange | null> {
  // A status first recorded now has no earlier start to measure from.
  const firstRecorded = await tx
    .insert(systemStatuses)
    .values({ systemId, status: 'unknown', changedAt: at })
    .onConflictDoNothing()
    .returning({ systemId: systemStatuses.systemId });
  const [stored] = await tx
    .select({
      status: systemStatuses.status,
      changedAt: systemStatuses.changedAt,
      causedBy: systemStatuses.causedBySystemId,
    })
    .from(systemStatuses)
    .where(eq(systemStatuses.systemId, systemId))
    .for('update');
  const [current] = await readSystemStatuses(tx, [systemId], inMaintenance);
  const previous = stored?.status ?? 'unknown';
  if (!current || current.status === previous) return null;
  // While a dependency is unhealthy, the change is put down to it; leaving a status put down to
  // a dependency (the recovery after it) is put down to the same one.
  const dependency = await unhealthyDependency(tx, systemId);
  const causedBy = dependency ?? stored?.causedBy ?? undefined;
  await tx
    .update(systemStatuses)
    .set({ status: current.status, changedAt: at, causedBySystemId: dependency ?? null })
    .where(eq(systemStatuses.systemId, systemId));
  return {
    systemId,
    previous,
    current: current.status,
    at: at.toISOString(),
    ...(stored && firstRecorded.length === 0 && { previousSince: stored.changedAt.toISOString() }),
    failingChecks: await failingChecksOf(tx, current),
    ...(causedBy !== undefined && { causedBy: { systemId: causedBy } }),
  };
}

export async function forgetSystemStatus(db: Database, systemId: string) {
  await db.delete(systemStatuses).where(eq(systemStatuses.systemId, systemId));
}
