import { isIP } from 'node:net';
import type { ConnectionOptions, PeerCertificate } from 'node:tls';
import { connect } from 'node:tls';
import { z } from 'zod';
import { defineHealthCheckType } from '../check-type.ts';
import { fail, pass, warn } from './outcome.ts';
import { configTimeoutMs } from './timeout.ts';
import { checkHost, onceConnected, runAgainstHost } from './vetted-host.ts';

const DAY_MS = 24 * 60 * 60 * 1_000;

const pemCertificates = z
  .string()
  .max(64 * 1024)
  .regex(
    /^\s*(-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\s*)+$/,
    'Must be one or more PEM certificates',
  );

export const TlsCheckConfigSchema = z
  .object({
    /** The host connected to; the certificate must be valid for it. */
    host: checkHost,
    port: z.number().int().min(1).max(65_535).default(443),
    /** Fewer days of validity left than this: the check warns (the system is degraded). */
    warningDays: z.number().int().min(1).max(3_650).default(14),
    /** Fewer days of validity left than this: the check fails. */
    criticalDays: z.number().int().min(0).max(3_650).default(7),
    /**
     * PEM certificates trusted instead of the system's authorities: for a private CA (and tests).
     * Without it the chain must lead to a public authority Node.js trusts.
     */
    ca: pemCertificates.optional(),
    timeoutMs: configTimeoutMs,
  })
  .refine((config) => config.criticalDays < config.warningDays, {
    path: ['criticalDays'],
    message: 'Must be fewer days than warningDays',
  });
export type TlsCheckConfig = z.infer<typeof TlsCheckConfigSchema>;

interface Handshake {
  authorizationError: string | undefined;
  certificate: PeerCertificate;
}

/** Completes a TLS handshake (and closes the connection); rejects on error or abort. */
function handshake(options: ConnectionOptions, signal: AbortSignal): Promise<Handshake> {
  return onceConnected(
    // Verification is judged here rather than by Node aborting, so the message can say why.
    () => connect({ ...options, rejectUnauthorized: false }),
    'secureConnect',
    (socket) => ({
      authorizationError: socket.authorized ? undefined : String(socket.authorizationError),
      certificate: socket.getPeerCertificate(),
    }),
    signal,
  );
}

export const tlsCheckType = defineHealthCheckType({
  id: 'tls',
  displayName: 'TLS certificate',
  description:
    'Connects with TLS, checks the certificate chain is valid for the host, and warns or fails as its expiry nears.',
  config: TlsCheckConfigSchema,
  targets: (config) => [{ path: 'host', host: config.host }],
  run(config, options) {
    const name = `${config.host}:${config.port}`;
    return runAgainstHost(
      config,
      options,
      (limit) => `Timed out after ${limit} ms on ${name}`,
      async (target, { signal, startedAt }) => {
        const { authorizationError, certificate } = await handshake(
          {
            host: config.host,
            port: config.port,
            lookup: target.lookup,
            // SNI carries names only; for an address the certificate is checked against it.
            ...(isIP(target.host) === 0 && { servername: target.host }),
            ...(config.ca !== undefined && { ca: config.ca }),
          },
          signal,
        );
        if (authorizationError) {
          return fail(startedAt, `Certificate of ${name} is not valid: ${authorizationError}`);
        }
        const expiresAt = new Date(certificate.valid_to);
        const daysLeft = Math.floor((expiresAt.getTime() - Date.now()) / DAY_MS);
        const validity = `Certificate of ${name} expires in ${daysLeft} days (${expiresAt.toISOString()})`;
        if (daysLeft < config.criticalDays) {
          return fail(startedAt, `${validity}, under the critical ${config.criticalDays}`);
        }
        if (daysLeft < config.warningDays) {
          return warn(startedAt, `${validity}, under the warning ${config.warningDays}`);
        }
        return pass(startedAt, validity);
      },
    );
  },
});
