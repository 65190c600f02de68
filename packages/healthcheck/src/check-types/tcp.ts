import { connect } from 'node:net';
import { z } from 'zod';
import { defineHealthCheckType } from '../check-type.ts';
import { pass } from './outcome.ts';
import { configTimeoutMs } from './timeout.ts';
import { checkHost, onceConnected, runAgainstHost } from './vetted-host.ts';

export const TcpCheckConfigSchema = z.object({
  /** A host name or an IP address. */
  host: checkHost,
  port: z.number().int().min(1).max(65_535),
  timeoutMs: configTimeoutMs,
});
export type TcpCheckConfig = z.infer<typeof TcpCheckConfigSchema>;

export const tcpCheckType = defineHealthCheckType({
  id: 'tcp',
  displayName: 'TCP',
  description: 'Opens a TCP connection to a host and port.',
  config: TcpCheckConfigSchema,
  targets: (config) => [{ path: 'host', host: config.host }],
  run(config, options) {
    const name = `${config.host}:${config.port}`;
    return runAgainstHost(
      config,
      options,
      (limit) => `Timed out after ${limit} ms connecting to ${name}`,
      async (target, { signal, startedAt }) => {
        await onceConnected(
          () => connect({ host: config.host, port: config.port, lookup: target.lookup }),
          'connect',
          () => undefined,
          signal,
        );
        return pass(startedAt, `Connected to ${name}`);
      },
    );
  },
});
