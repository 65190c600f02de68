import type { CheckOutcome, HealthCheckTypeRegistry } from './check-type.ts';
import { withDeadline } from './deadline.ts';

/** How long past its timeout a type that ignores its signal is waited for. */
const GRACE_MS = 1_000;

export interface CheckToRun {
  type: string;
  config: Record<string, unknown>;
  timeoutMs: number;
}

/**
 * Runs a check once with its type. Never rejects and never outlives the timeout by more than a
 * grace period: whatever goes wrong becomes a `fail` outcome.
 */
export async function runCheck(
  registry: HealthCheckTypeRegistry,
  check: CheckToRun,
  cancel: AbortSignal = new AbortController().signal,
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
  try {
    return await Promise.race([
      type.run(config.data, { signal: deadline.signal, timeoutMs: check.timeoutMs }),
      overdue,
    ]);
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    deadline.release();
  }
}
