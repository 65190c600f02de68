import type { CheckOutcome, HealthCheckTypeRegistry } from './check-type.ts';
import { isTimeout, withDeadline } from './deadline.ts';
import { assertTargetsAllowed } from './targets/check-targets.ts';
import type { TargetPolicy } from './targets/target-policy.ts';

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
  /** Cancels the run (server shutdown). */
  cancel?: AbortSignal;
}

/**
 * Runs a check once with its type, once the target policy accepts every target the type names
 * (a refused one fails the run before anything connects). Never rejects and never outlives the
 * timeout by more than a grace period: whatever goes wrong becomes a `fail` outcome.
 */
export async function runCheck(
  registry: HealthCheckTypeRegistry,
  check: CheckToRun,
  { targets, cancel = new AbortController().signal }: RunCheckOptions,
): Promise<CheckOutcome> {
  const startedAt = performance.now();
  const failed = (message: string): CheckOutcome => ({
    status: 'fail',
    latencyMs: Math.round(performance.now() - startedAt),
    message,
  });
  const type = registry.get(check.type);
  if (!type) return failed(`Unknown health check type "${check.type}"`);
  // Stored configs are parsed again: the type's schema may have gained defaults since.
  const config = type.config.safeParse(check.config);
  if (!config.success) return failed(`Invalid config: ${config.error.issues[0]?.message ?? ''}`);

  const deadline = withDeadline(cancel, check.timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve(failed(`Timed out after ${check.timeoutMs} ms`)),
      check.timeoutMs + GRACE_MS,
    );
  });
  const run = () =>
    type.run(config.data, {
      signal: deadline.signal,
      timeoutMs: check.timeoutMs,
      targets,
      healthCheckId: check.healthCheckId,
    });
  try {
    const named = type.targets?.(config.data) ?? [];
    const attempt =
      named.length === 0 ? run() : assertTargetsAllowed(targets, named, deadline.signal).then(run);
    return await Promise.race([attempt, overdue]);
  } catch (error) {
    if (deadline.signal.aborted && error === deadline.signal.reason) {
      return failed(isTimeout(error) ? `Timed out after ${check.timeoutMs} ms` : 'Cancelled');
    }
    return failed(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    deadline.release();
  }
}
