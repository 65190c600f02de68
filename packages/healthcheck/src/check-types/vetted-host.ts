import type { Socket } from 'node:net';
import { z } from 'zod';
import type { CheckOutcome, RunOptions } from '../check-type.ts';
import { withDeadline } from '../deadline.ts';
import type { VettedTarget } from '@checkline/net';
import { failure } from './outcome.ts';
import { effectiveTimeout } from './timeout.ts';

/** The `host` of a type that connects to one: a host name or an IP address. */
export const checkHost = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.:_-]+$/, 'Must be a host name or an IP address');

/**
 * One run against `config.host`: vets it with the target policy within the run's deadline,
 * then `attempt`s the connection through the vetted target. A throw becomes the failed outcome
 * (`timedOut(limit)` once the deadline passed).
 */
export async function runAgainstHost(
  config: { host: string; timeoutMs?: number | undefined },
  { signal, timeoutMs, targets }: RunOptions,
  timedOut: (limit: number) => string,
  attempt: (
    target: VettedTarget,
    run: { signal: AbortSignal; startedAt: number; limit: number },
  ) => Promise<CheckOutcome>,
): Promise<CheckOutcome> {
  const limit = effectiveTimeout(timeoutMs, config.timeoutMs);
  const deadline = withDeadline(signal, limit);
  const startedAt = performance.now();
  try {
    const target = await targets.vet(config.host, deadline.signal);
    return await attempt(target, { signal: deadline.signal, startedAt, limit });
  } catch (error) {
    return failure(startedAt, error, deadline.signal, timedOut(limit));
  } finally {
    deadline.release();
  }
}

/**
 * Resolves with what `ready` reads of the socket once `event` (its connection or handshake)
 * fires, and closes it; rejects on the socket's error or `signal`'s abort.
 */
export function onceConnected<S extends Socket, T>(
  open: () => S,
  event: 'connect' | 'secureConnect',
  ready: (socket: S) => T,
  signal: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const socket = open();
    const settle = (outcome: { value: T } | { error: unknown }) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      if ('value' in outcome) resolve(outcome.value);
      else reject(outcome.error);
    };
    const onAbort = () => settle({ error: signal.reason });
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once(event, () => settle({ value: ready(socket) }));
    socket.once('error', (error) => settle({ error }));
  });
}
