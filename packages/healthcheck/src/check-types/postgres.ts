import type { LookupFunction, Socket } from 'node:net';
import { connect } from 'node:net';
import postgres from 'postgres';
import { destination, secret } from '@checkline/core';
import { z } from 'zod';
import { defineHealthCheckType } from '../check-type.ts';
import type { SecretSealer } from '../config-secrets.ts';
import { openConfigSecret } from '../config-secrets.ts';
import { pass } from './outcome.ts';
import { configTimeoutMs } from './timeout.ts';
import { checkHost, runAgainstHost } from './vetted-host.ts';

const identifier = z.string().trim().min(1).max(63);

export const PostgresCheckConfigSchema = z.object({
  /** A host name or an IP address. */
  // The password is bound to these: moving the check elsewhere needs it entered again.
  host: destination(checkHost),
  port: destination(z.number().int().min(1).max(65_535)).default(5432),
  database: identifier.default('postgres'),
  username: identifier.default('postgres'),
  /** Never shown in an answer; an update that leaves it out keeps the stored one. */
  password: secret(z.string().min(1).max(1_000))
    .meta({ writeOnly: true })
    .optional()
    .describe('The password of the user; kept when left out, unless host or port change.'),
  /** `verify-full`: TLS with the certificate checked for the host; `prefer`: TLS when offered. */
  ssl: z.enum(['disable', 'prefer', 'require', 'verify-full']).default('prefer'),
  timeoutMs: configTimeoutMs,
});
export type PostgresCheckConfig = z.infer<typeof PostgresCheckConfigSchema>;

const sslOption = (ssl: PostgresCheckConfig['ssl']) =>
  ssl === 'disable' ? false : ssl === 'verify-full' ? { rejectUnauthorized: true } : ssl;

/** A connected socket to the address the policy judged; postgres.js speaks over it. */
function connectedSocket(host: string, port: number, lookup: LookupFunction): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, lookup });
    socket.once('connect', () => {
      socket.off('error', reject);
      // postgres.js names the TLS server (SNI, certificate check) by this.
      Object.assign(socket, { host });
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function abortedBy(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * The postgres check type; `sealer` opens a password stored encrypted (the plugin seals it on
 * save when it has a key).
 */
export const createPostgresCheckType = (sealer?: SecretSealer) =>
  defineHealthCheckType({
    id: 'postgres',
    displayName: 'PostgreSQL',
    description: 'Connects to a PostgreSQL server and runs SELECT 1.',
    config: PostgresCheckConfigSchema,
    targets: (config) => [{ path: 'host', host: config.host }],
    run(config, runOptions) {
      const name = `${config.host}:${config.port}/${config.database}`;
      return runAgainstHost(
        config,
        runOptions,
        (limit) => `Timed out after ${limit} ms on ${name}`,
        async (target, { signal, startedAt, limit }) => {
          const options = {
            host: config.host,
            port: config.port,
            database: config.database,
            username: config.username,
            ...(config.password !== undefined && {
              password: openConfigSecret(
                'password',
                config.password,
                sealer,
                runOptions.healthCheckId,
              ),
            }),
            ssl: sslOption(config.ssl),
            max: 1,
            prepare: false,
            connect_timeout: Math.ceil(limit / 1_000),
            onnotice: () => {},
            connection: { application_name: 'checkline-healthcheck', statement_timeout: limit },
            // Untyped in postgres.js, but supported: the connection is opened here, pinned.
            socket: () => connectedSocket(config.host, config.port, target.lookup),
          };
          const sql = postgres(options);
          try {
            await Promise.race([sql`select 1 as ok`, abortedBy(signal)]);
            return pass(startedAt, `SELECT 1 answered by ${name}`);
          } finally {
            await sql.end({ timeout: 0 }).catch(() => {});
          }
        },
      );
    },
  });

/** The postgres check type for passwords stored in plain text (no key configured). */
export const postgresCheckType = createPostgresCheckType();
