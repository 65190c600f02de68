import { connect } from 'node:net';
import { z } from 'zod';
import type { CheckOutcome } from '../check-type.ts';
import { defineHealthCheckType } from '../check-type.ts';
import { isTimeout } from '../deadline.ts';
import { describeNetworkError, fail, pass } from './outcome.ts';
import { configTimeoutMs, effectiveTimeout } from './timeout.ts';

export const TcpCheckConfigSchema = z.object({
  /** A host name or an IP address. */
  host: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .regex(/^[A-Za-z0-9.:_-]+$/, 'Must be a host name or an IP address'),
  port: z.number().int().min(1).max(65_535),
  timeoutMs: configTimeoutMs,
});
export type TcpCheckConfig = z.infer<typeof TcpCheckConfigSchema>;

export const tcpCheckType = defineHealthCheckType({
  id: 'tcp',
  displayName: 'TCP',
  description: 'Opens a TCP connection to a host and port.',
  config: TcpCheckConfigSchema,
  run(config, { signal, timeoutMs }) {
    const limit = effectiveTimeout(timeoutMs, config.timeoutMs);
    const target = `${config.host}:${config.port}`;
    const startedAt = performance.now();
    return new Promise<CheckOutcome>((resolve) => {
      const socket = connect({ host: config.host, port: config.port });
      const finish = (outcome: CheckOutcome) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        socket.destroy();
        resolve(outcome);
      };
      const timedOut = () => fail(startedAt, `Timed out after ${limit} ms connecting to ${target}`);
      const onAbort = () =>
        finish(isTimeout(signal.reason) ? timedOut() : fail(startedAt, 'Cancelled'));
      const timer = setTimeout(() => finish(timedOut()), limit);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      socket.once('connect', () => finish(pass(startedAt, `Connected to ${target}`)));
      socket.once('error', (error) => finish(fail(startedAt, describeNetworkError(error))));
    });
  },
});
