import { isIP } from 'node:net';
import type { ConnectionOptions, PeerCertificate } from 'node:tls';
import { connect } from 'node:tls';
import { z } from 'zod';
import { defineHealthCheckType } from '../check-type.ts';
import { withDeadline } from '../deadline.ts';
import { fail, failure, pass, warn } from './outcome.ts';
import { configTimeoutMs, effectiveTimeout } from './timeout.ts';

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
    host: z
      .string()
      .trim()
      .min(1)
      .max(253)
      .regex(/^[A-Za-z0-9.:_-]+$/, 'Must be a host name or an IP address'),
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
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    // Verification is judged here rather than by Node aborting, so the message can say why.
    const socket = connect({ ...options, rejectUnauthorized: false });
    const settle = (error: unknown, result?: Handshake) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      if (result) resolve(result);
      else reject(error);
    };
    const onAbort = () => settle(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () =>
      settle(undefined, {
        authorizationError: socket.authorized ? undefined : String(socket.authorizationError),
        certificate: socket.getPeerCertificate(),
      }),
    );
    socket.once('error', (error) => settle(error));
  });
}

export const tlsCheckType = defineHealthCheckType({
  id: 'tls',
  displayName: 'TLS certificate',
  description:
    'Connects with TLS, checks the certificate chain is valid for the host, and warns or fails as its expiry nears.',
  config: TlsCheckConfigSchema,
  targets: (config) => [{ path: 'host', host: config.host }],
  async run(config, { signal, timeoutMs, targets }) {
    const limit = effectiveTimeout(timeoutMs, config.timeoutMs);
    const name = `${config.host}:${config.port}`;
    const deadline = withDeadline(signal, limit);
    const startedAt = performance.now();
    try {
      const target = await targets.vet(config.host, deadline.signal);
      const { authorizationError, certificate } = await handshake(
        {
          host: config.host,
          port: config.port,
          lookup: target.lookup,
          // SNI carries names only; for an address the certificate is checked against it.
          ...(isIP(target.host) === 0 && { servername: target.host }),
          ...(config.ca !== undefined && { ca: config.ca }),
        },
        deadline.signal,
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
    } catch (error) {
      return failure(startedAt, error, deadline.signal, `Timed out after ${limit} ms on ${name}`);
    } finally {
      deadline.release();
    }
  },
});
