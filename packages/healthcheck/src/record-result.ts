import type { Database } from '@checkline/db';
import { and, eq } from 'drizzle-orm';
import type { CheckOutcome } from './check-type.ts';
import { healthChecks, results } from './db/schema.ts';
import type { MaintenanceLookup } from './maintenance.ts';
import type { HealthCheckResult, HealthStatusChange } from './schemas.ts';
import { toResult } from './service.ts';
import { recomputeSystemStatus } from './system-status.ts';

export interface ResultToRecord {
  healthCheckId: string;
  outcome: CheckOutcome;
  /** The scheduled due time the run answers; null for a run asked for by hand. */
  dueAt: Date | null;
  checkedAt: Date;
}

export interface RecordedResult {
  /** Null when the check was deleted meanwhile or the due time was answered already. */
  result: HealthCheckResult | null;
  /** The system's status change; the caller writes its event in the same transaction. */
  change: HealthStatusChange | null;
}

/**
 * Stores a result, ends the claim it answers and recomputes the system's status, all in one
 * transaction (a savepoint inside a caller's).
 */
export async function recordResult(
  db: Database,
  input: ResultToRecord,
  inMaintenance: MaintenanceLookup,
): Promise<RecordedResult> {
  return db.transaction(async (tx) => {
    const [check] = await tx
      .select({ systemId: healthChecks.systemId })
      .from(healthChecks)
      .where(eq(healthChecks.id, input.healthCheckId))
      .for('key share');
    if (!check) return { result: null, change: null };
    if (input.dueAt) {
      await tx
        .update(healthChecks)
        .set({ claimedDueAt: null, claimedUntil: null })
        .where(
          and(eq(healthChecks.id, input.healthCheckId), eq(healthChecks.claimedDueAt, input.dueAt)),
        );
    }
    const [row] = await tx
      .insert(results)
      .values({
        healthCheckId: input.healthCheckId,
        status: input.outcome.status,
        latencyMs: Math.max(0, Math.round(input.outcome.latencyMs)),
        message: input.outcome.message.slice(0, 2_000),
        dueAt: input.dueAt,
        checkedAt: input.checkedAt,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return { result: null, change: null };
    const change = await recomputeSystemStatus(tx, check.systemId, input.checkedAt, inMaintenance);
    return { result: toResult(row), change };
  });
}
