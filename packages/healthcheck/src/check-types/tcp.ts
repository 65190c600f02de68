import type { TcpNetConnectOpts } from 'node:net';
import { connect } from 'node:net';
import { z } from 'zod';
import { defineHealthCheckType } from '../check-type.ts';
import { withDeadline } from '../deadline.ts';
import { failure, pass } from './outcome.ts';
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

/** Resolves once a connection is established (and closes it); rejects on error or abort. */
function connectOnce(options: TcpNetConnectOpts, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const socket = connect(options);
    const settle = (error?: unknown) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = () => settle(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => settle());
    socket.once('error', (error) => settle(error));
  });
}

export const tcpCheckType = defineHealthCheckType({
  id: 'tcp',
  displayName: 'TCP',
  description: 'Opens a TCP connection to a host and port.',
  config: TcpCheckConfigSchema,
  targets: (config) => [{ path: 'host', host: config.host }],
  async run(config, { signal, timeoutMs, targets }) {
    const limit = effectiveTimeout(timeoutMs, config.timeoutMs);
    const name = `${config.host}:${config.port}`;
    const deadline = withDeadline(signal, limit);
    const startedAt = performance.now();
    try {
      const target = await targets.vet(config.host, deadline.signal);
      await connectOnce(
        { host: config.host, port: config.port, lookup: target.lookup },
        deadline.signal,
      );
      return pass(startedAt, `Connected to ${name}`);
    } catch (error) {
      return failure(
        startedAt,
        error,
        deadline.signal,
        `Timed out after ${limit} ms connecting to ${name}`,
      );
    } finally {
      deadline.release();
    }
  },
});
