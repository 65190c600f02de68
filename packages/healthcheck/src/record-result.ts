import type { Database } from '@checkline/db';
import type { CheckOutcome } from './check-type.ts';
import type { MaintenanceLookup } from './maintenance.ts';
import type { HealthCheckResult, HealthStatusChange } from './schemas.ts';
import { toResult } from './service.ts';
import { recomputeSystemStatus } from './system-status.ts';
import { writeResults } from './write-results.ts';
import { countAlertStates, lockChecks } from './count-alert-states.ts';

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
 * Stores one result (with its rollups), ends the claim it answers and recomputes the system's
 * status, all in one transaction (a savepoint inside a caller's). The scheduler writes its runs
 * in batches instead (result-writer.ts).
 */
export async function recordResult(
  db: Database,
  input: ResultToRecord,
  inMaintenance: MaintenanceLookup,
): Promise<RecordedResult> {
  return db.transaction(async (tx) => {
    await lockChecks(tx, [input.healthCheckId]);
    const [written] = await countAlertStates(
      tx,
      await writeResults(tx, [{ ...input, lagMs: null, processId: null }]),
    );
    if (!written) return { result: null, change: null };
    const change = await recomputeSystemStatus(
      tx,
      written.systemId,
      input.checkedAt,
      inMaintenance,
    );
    return { result: toResult(written.row), change };
  });
}
