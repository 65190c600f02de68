import type { CheckOutcome } from '../check-type.ts';
import { isTimeout } from '../deadline.ts';
import { TargetRefusedError } from '@checkline/net';

/** Milliseconds since `startedAt` (a `performance.now()` reading), whole. */
export const elapsedSince = (startedAt: number) => Math.round(performance.now() - startedAt);

export const pass = (startedAt: number, message: string): CheckOutcome => ({
  status: 'pass',
  latencyMs: elapsedSince(startedAt),
  message,
});

export const warn = (startedAt: number, message: string): CheckOutcome => ({
  status: 'warn',
  latencyMs: elapsedSince(startedAt),
  message,
});

export const fail = (startedAt: number, message: string): CheckOutcome => ({
  status: 'fail',
  latencyMs: elapsedSince(startedAt),
  message,
});

/** The most telling text of a network error: the system's code (ECONNREFUSED) when there is one. */
export function describeNetworkError(error: unknown): string {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return `${code}: ${current.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The outcome of a run that threw: the policy's refusal, the network's error, or, once `signal`
 * is aborted, `timedOut` or `Cancelled` by the abort's reason.
 */
export function failure(
  startedAt: number,
  error: unknown,
  signal: AbortSignal,
  timedOut: string,
): CheckOutcome {
  if (error instanceof TargetRefusedError) return fail(startedAt, error.message);
  if (!signal.aborted) return fail(startedAt, describeNetworkError(error));
  return fail(startedAt, isTimeout(signal.reason) ? timedOut : 'Cancelled');
}
