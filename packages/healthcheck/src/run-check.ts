import type { CheckOutcome, HealthCheckTypeRegistry, QueuedWait } from './check-type.ts';
import { isTimeout } from './deadline.ts';
import { assertTargetsAllowed } from './check-targets.ts';
import { LateStartError } from './late-start.ts';
import { createRunClock } from './run-clock.ts';
import type { Database } from '@checkline/db';
import type { TargetPolicy } from '@checkline/net';

/** How long past its timeout a type that ignores its signal is waited for. */
const GRACE_MS = 1_000;

export interface CheckToRun {
  /** Handed to the type as `healthCheckId` (a scheduler's claimed run carries it). */
  healthCheckId?: string;
  type: string;
  config: Record<string, unknown>;
  timeoutMs: number;
}

export interface RunCheckOptions {
  /** Judges the check's targets before the type runs, and is handed to the type. */
  targets: TargetPolicy;
  /** Handed to the type with `healthCheckId`, for the state it keeps per check. */
  db?: Database;
  /** Cancels the run (server shutdown). */
  cancel?: AbortSignal;
  /**
   * Milliseconds from this call within which a run waiting in our own queue (a connection slot)
   * must have reached its target; past them the run is answered as late instead. Without it a
   * run waits until cancelled. A duration, not an instant: the caller's clock may not be ours.
   */
  startWithinMs?: number;
}

/** A run that could not start in time: nothing was asked of the target. */
export interface LateStart {
  status: 'late';
  queueWaitMs: number;
}

/**
 * Runs a check once with its type, once the target policy accepts every target the type names
 * (a refused one fails the run before anything connects). Never rejects and never outlives the
 * timeout by more than a grace period: whatever goes wrong becomes a `fail` outcome. Time spent
 * in our own queue (`queued`) stops the timeout and is reported as `queueWaitMs`; with
 * `startWithinMs`, a run still queued then is answered as `late`, never as a failure of the
 * target.
 */
export async function runCheck(
  registry: HealthCheckTypeRegistry,
  check: CheckToRun,
  options: RunCheckOptions & { startWithinMs?: undefined },
): Promise<CheckOutcome>;
export async function runCheck(
  registry: HealthCheckTypeRegistry,
  check: CheckToRun,
  options: RunCheckOptions,
): Promise<CheckOutcome | LateStart>;
export async function runCheck(
  registry: HealthCheckTypeRegistry,
  check: CheckToRun,
  { targets, db, cancel = new AbortController().signal, startWithinMs }: RunCheckOptions,
): Promise<CheckOutcome | LateStart> {
  const startedAt = performance.now();
  let queueWaitMs = 0;
  const failed = (message: string): CheckOutcome => ({
    status: 'fail',
    latencyMs: Math.round(performance.now() - startedAt - queueWaitMs),
    message,
    queueWaitMs: Math.round(queueWaitMs),
  });
  const type = registry.get(check.type);
  if (!type) return failed(`Unknown health check type "${check.type}"`);
  // Stored configs are parsed again: the type's schema may have gained defaults since.
  const config = type.config.safeParse(check.config);
  if (!config.success) return failed(`Invalid config: ${config.error.issues[0]?.message ?? ''}`);

  const clock = createRunClock(cancel, check.timeoutMs, GRACE_MS);
  let late: LateStartError | undefined;
  const queued: QueuedWait = async (wait) => {
    const waitStarted = performance.now();
    clock.pause();
    const waiting = new AbortController();
    const onCancel = () => waiting.abort(cancel.reason);
    cancel.addEventListener('abort', onCancel, { once: true });
    const elapsed = () => Math.round(performance.now() - waitStarted);
    const startsLate = () => waiting.abort((late = new LateStartError(elapsed())));
    const lateTimer =
      startWithinMs === undefined
        ? undefined
        : setTimeout(startsLate, Math.max(0, startWithinMs - (waitStarted - startedAt)));
    try {
      if (cancel.aborted) onCancel();
      return await wait(waiting.signal);
    } finally {
      clearTimeout(lateTimer);
      cancel.removeEventListener('abort', onCancel);
      queueWaitMs += performance.now() - waitStarted;
      clock.resume();
    }
  };
  const overdue = clock.overdue.then(() => failed(`Timed out after ${check.timeoutMs} ms`));
  const run = () =>
    type.run(config.data, {
      signal: clock.signal,
      timeoutMs: check.timeoutMs,
      targets,
      healthCheckId: check.healthCheckId,
      ...(db && { db }),
      queued,
    });
  try {
    const named = type.targets?.(config.data) ?? [];
    const attempt =
      named.length === 0 ? run() : assertTargetsAllowed(targets, named, clock.signal).then(run);
    const outcome = await Promise.race([attempt, overdue]);
    if (late) return { status: 'late', queueWaitMs: Math.round(queueWaitMs) };
    return { ...outcome, queueWaitMs: Math.round(queueWaitMs) };
  } catch (error) {
    if (late || error instanceof LateStartError) {
      return { status: 'late', queueWaitMs: Math.round(queueWaitMs) };
    }
    if (clock.signal.aborted && error === clock.signal.reason) {
      return failed(isTimeout(error) ? `Timed out after ${check.timeoutMs} ms` : 'Cancelled');
    }
    return failed(error instanceof Error ? error.message : String(error));
  } finally {
    clock.release();
  }
}
