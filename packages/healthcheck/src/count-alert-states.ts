import type { Database } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { inArray, sql } from 'drizzle-orm';
import { advanceAlertState } from './alert-state.ts';
import type { AlertState } from './alert-state.ts';
import { healthChecks, results } from './db/schema.ts';
import type { WrittenResult } from './write-results.ts';

/** A written result, with whether it changed its check's alert status. */
export interface CountedResult extends WrittenResult {
  alertChanged: boolean;
}

interface CheckState extends AlertState {
  id: string;
  failuresBeforeAlert: number;
  recoveriesBeforeResolve: number;
  retryIntervalSeconds: number | null;
}

/**
 * Locks the checks a batch of runs answers, in id order (every writer locks in the same order,
 * so two batches never wait on each other in a circle). Call before writing their results.
 */
export async function lockChecks(tx: Database, checkIds: readonly string[]) {
  const ids = [...new Set(checkIds)].sort();
  if (ids.length === 0) return;
  await tx
    .select({ id: healthChecks.id })
    .from(healthChecks)
    .where(inArray(healthChecks.id, ids))
    .orderBy(healthChecks.id)
    .for('no key update');
}

/**
 * Counts freshly written results against their checks' thresholds, oldest first: stores each
 * check's new alert state, marks the results still pending, and brings a pending check's next
 * run forward to its retry interval. Call in the transaction that wrote them, checks locked.
 */
export async function countAlertStates(
  tx: Database,
  written: readonly WrittenResult[],
): Promise<CountedResult[]> {
  if (written.length === 0) return [];
  const ids = [...new Set(written.map((entry) => entry.row.healthCheckId))];
  const rows: CheckState[] = await tx
    .select({
      id: healthChecks.id,
      alertStatus: healthChecks.alertStatus,
      streakStatus: healthChecks.streakStatus,
      streakCount: healthChecks.streakCount,
      failuresBeforeAlert: healthChecks.failuresBeforeAlert,
      recoveriesBeforeResolve: healthChecks.recoveriesBeforeResolve,
      retryIntervalSeconds: healthChecks.retryIntervalSeconds,
    })
    .from(healthChecks)
    .where(inArray(healthChecks.id, ids));
  const states = new Map(rows.map((row) => [row.id, row]));
  const ordered = [...written].sort(
    (a, b) => a.row.checkedAt.getTime() - b.row.checkedAt.getTime(),
  );
  const counted: CountedResult[] = [];
  const pendingResultIds: string[] = [];
  const retryAt = new Map<string, Date>();
  for (const entry of ordered) {
    const state = states.get(entry.row.healthCheckId);
    if (!state) continue;
    const next = advanceAlertState(state, entry.row.status, state);
    counted.push({ ...entry, alertChanged: next.alertStatus !== state.alertStatus });
    if (next.pending) pendingResultIds.push(entry.row.id);
    if (next.pending && state.retryIntervalSeconds !== null) {
      retryAt.set(
        state.id,
        new Date(entry.row.checkedAt.getTime() + state.retryIntervalSeconds * 1_000),
      );
    } else {
      retryAt.delete(state.id);
    }
    Object.assign(state, {
      alertStatus: next.alertStatus,
      streakStatus: next.streakStatus,
      streakCount: next.streakCount,
    });
  }
  const input = JSON.stringify(
    [...states.values()].map((state) => ({
      id: state.id,
      alert_status: state.alertStatus,
      streak_status: state.streakStatus,
      streak_count: state.streakCount,
      retry_at: retryAt.get(state.id)?.toISOString() ?? null,
    })),
  );
  await queryRows(
    tx,
    sql`
    update ${healthChecks} as checks set alert_status = input.alert_status,
      streak_status = input.streak_status, streak_count = input.streak_count,
      next_run_at = case when input.retry_at is null then checks.next_run_at
        else least(checks.next_run_at, input.retry_at) end
    from jsonb_to_recordset(${input}::jsonb) as input(id uuid, alert_status text,
      streak_status text, streak_count int, retry_at timestamptz)
    where checks.id = input.id
    returning 1`,
  );
  if (pendingResultIds.length > 0) {
    await tx.update(results).set({ pending: true }).where(inArray(results.id, pendingResultIds));
  }
  for (const entry of counted) {
    if (pendingResultIds.includes(entry.row.id)) entry.row = { ...entry.row, pending: true };
  }
  return counted;
}
