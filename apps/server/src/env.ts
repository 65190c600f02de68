import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLoopbackHost } from '@checkline/auth';
import { parseTargetList } from '@checkline/net';
import { parseEncryptionKey } from '@checkline/core';
import { z } from 'zod';

/** The repository's root: relative paths in the configuration are taken from here. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** An absolute `http://` or `https://` address. */
const httpUrl = z
  .url({
    protocol: /^https?$/,
    hostname: z.regexes.hostname,
    error: 'must be an absolute http(s) URL',
  })
  .optional();

const optional = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/** Comma-separated addresses, CIDR ranges and host names; an invalid entry is named. */
const targetList = z
  .string()
  .default('')
  .transform((value, context) => {
    const { rules, invalid } = parseTargetList(value);
    if (invalid.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `not an address, range or host name: ${invalid.join(', ')}`,
      });
    }
    return rules.map((rule) => rule.entry);
  });

/** A 32-byte key in base64; the message never repeats the value. */
function encryptionKey(value: string, context: z.RefinementCtx): Buffer {
  try {
    return parseEncryptionKey(value, 'the key');
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
}

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    BASE_URL: optional.pipe(httpUrl),
    FRONTEND_URL: optional.pipe(httpUrl),
    DATABASE_URL: optional.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
        .optional(),
    ),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    DATA_DIR: optional.transform((value) => dataDirectory(value ?? './data')),
    /** The web UI's production build, served at `/` (relative: from the repository root). */
    WEB_DIST_DIR: optional.transform((value) => dataDirectory(value ?? 'apps/web/dist')),
    /** Encrypts stored secrets; generated into DATA_DIR when unset, except in production. */
    ENCRYPTION_KEY: optional.transform((value, context) =>
      value === undefined ? undefined : encryptionKey(value, context),
    ),
    /** Earlier keys, comma-separated: still decrypt until `pnpm secrets:rotate` has run. */
    ENCRYPTION_KEYS_OLD: z
      .string()
      .default('')
      .transform((value, context) =>
        value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean)
          .map((entry) => encryptionKey(entry, context)),
      ),
    ADMIN_EMAIL: optional.pipe(z.email().optional()),
    ADMIN_PASSWORD: optional,
    API_KEY_RATE_LIMIT: z.coerce.number().int().min(0).default(6000),
    AUTH_FAILURE_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
    CHECK_TARGETS_ALLOW: targetList,
    CHECK_TARGETS_DENY: targetList,
    CHECK_RUN_RATE_LIMIT: z.coerce.number().int().min(0).default(30),
    /** Beats a minute one heartbeat check takes; 0 = no limit. */
    HEARTBEAT_RATE_LIMIT: z.coerce.number().int().min(0).default(60),
    /** Health-check runs each server process keeps in flight. */
    CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(256),
    /** Health-check runs of one target host in flight at once, per process. */
    CHECK_MAX_PER_HOST: z.coerce.number().int().min(1).max(10_000).default(8),
    /** Health-check runs of one owner's checks (their creator) in flight at once, per process. */
    CHECK_MAX_PER_OWNER: z.coerce.number().int().min(1).max(10_000).default(64),
    /** Days raw check results are kept; hourly and daily rollups stay a year. */
    CHECK_RESULT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(7),
    ACCOUNT_FAILURE_RATE_LIMIT: z.coerce.number().int().min(0).default(30),
    /** Failed sign-ins an hour per account from one address (clients unknown to the account). */
    ACCOUNT_ADDRESS_FAILURE_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
    /** Failed sign-ins an hour per device that signed in to the account before. */
    DEVICE_FAILURE_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
    TRUST_PROXY: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /** Sign-in with an OpenID Connect provider: all three, or none (then it is not offered). */
    OIDC_ISSUER: optional.pipe(httpUrl),
    OIDC_CLIENT_ID: optional,
    OIDC_CLIENT_SECRET: optional,
    /** The strategy id and identity provider (`auth-provider` contact resolution names it). */
    OIDC_NAME: optional.pipe(
      z
        .string()
        .regex(/^[a-z][a-z0-9-]{0,31}$/, 'lowercase letters, digits and dashes')
        .refine((name) => name !== 'custom' && name !== 'logout', 'custom and logout are taken')
        .default('oidc'),
    ),
    /** Space-separated; `openid` is always asked. */
    OIDC_SCOPES: optional.transform((value) =>
      (value ?? 'openid email profile').split(/[\s,]+/).filter(Boolean),
    ),
    /** Lets `OIDC_ISSUER` be plain http off loopback (codes and tokens then cross in clear). */
    OIDC_ALLOW_INSECURE_ISSUER: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /** Let channels reach loopback, private, link-local and CGNAT addresses (on-premise receivers). */
    WEBHOOK_ALLOW_PRIVATE: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /** Status-page subscription requests per page per hour (all processes together); 0 = no limit. */
    STATUSPAGE_SUBSCRIBES_PER_PAGE: z.coerce.number().int().min(0).default(100),
    /** Status-page subscription requests per e-mail address per hour, across pages; 0 = no limit. */
    STATUSPAGE_SUBSCRIBES_PER_ADDRESS: z.coerce.number().int().min(0).default(5),
    /** Notifications (one per recipient) one caller may store per hour through the send procedures; 0 = no limit. */
    NOTIFICATIONS_PER_CALLER_PER_HOUR: z.coerce.number().int().min(0).default(50_000),
    /**
     * Seconds before each retry of a failed delivery, comma-separated (the last repeats); a
     * delivery is tried once more than it has steps.
     */
    DELIVERY_RETRY_DELAYS: z
      .string()
      .default('30,120,600,3600,21600')
      .transform((value, context) => {
        const steps = value.split(',').map((step) => Number(step.trim()));
        if (steps.length === 0 || !steps.every((step) => Number.isFinite(step) && step > 0)) {
          context.addIssue({ code: 'custom', message: 'must list positive numbers of seconds' });
          return z.NEVER;
        }
        return steps.map((step) => Math.round(step * 1_000));
      }),
    /**
     * The smallest reminder interval and escalation delay a subscription may ask for, in seconds
     * (tests lower it; a person reminded more often than every minute stops reading).
     */
    REMINDER_MIN_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    /** How often each process looks for due reminders and escalations, in milliseconds. */
    REMINDER_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(5_000),
    /**
     * Milliseconds a process holds a claimed delivery; a claim its process did not finish (it
     * died) is taken over by another once this lapses. Above DELIVERY_SEND_TIMEOUT_MS.
     */
    DELIVERY_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
    /**
     * Milliseconds one delivery's send may take before it counts as a failed attempt. A stopping
     * process waits this long at most for sends in flight, so that none is repeated.
     */
    DELIVERY_SEND_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
    /** Open notification streams one user may hold in a process; one more closes their oldest. */
    INBOX_STREAMS_PER_USER: z.coerce.number().int().min(1).max(1_000).default(20),
    /** Open notification streams of one process; past it a new one is 429 with Retry-After. */
    INBOX_STREAMS_PER_PROCESS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    /** Bearer token of `GET /metrics`; unset, the endpoint answers 404. */
    METRICS_TOKEN: optional.pipe(
      z.string().min(32, 'at least 32 characters (openssl rand -hex 32)').optional(),
    ),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    LOG_LEVEL: z
      .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
      .default('info'),
  })
  .superRefine((env, context) => {
    const oidc = {
      OIDC_ISSUER: env.OIDC_ISSUER,
      OIDC_CLIENT_ID: env.OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET,
    };
    if (env.DELIVERY_LEASE_MS <= env.DELIVERY_SEND_TIMEOUT_MS) {
      context.addIssue({
        code: 'custom',
        path: ['DELIVERY_LEASE_MS'],
        message:
          'must be above DELIVERY_SEND_TIMEOUT_MS (a send still running must keep its claim)',
      });
    }
    const given = Object.values(oidc).filter((value) => value !== undefined).length;
    if (given > 0 && given < 3) {
      for (const [name, value] of Object.entries(oidc)) {
        if (value === undefined) {
          context.addIssue({
            code: 'custom',
            path: [name],
            message: 'required with the other OIDC_ settings',
          });
        }
      }
    }
    if (
      env.OIDC_ISSUER?.startsWith('http:') &&
      !env.OIDC_ALLOW_INSECURE_ISSUER &&
      !isLoopbackHost(new URL(env.OIDC_ISSUER).hostname)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message:
          'must be https (plain http only on loopback, or with OIDC_ALLOW_INSECURE_ISSUER=true)',
      });
    }
    if (env.NODE_ENV === 'production' && !env.ENCRYPTION_KEY) {
      context.addIssue({
        code: 'custom',
        path: ['ENCRYPTION_KEY'],
        message:
          'required when NODE_ENV=production: 32 random bytes in base64 (openssl rand -base64 32)',
      });
    }
  })
  .transform((env) => {
    const baseUrl = (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
    const frontendUrl = (env.FRONTEND_URL ?? baseUrl).replace(/\/$/, '');
    return { ...env, BASE_URL: baseUrl, FRONTEND_URL: frontendUrl };
  });

export type Env = z.infer<typeof EnvSchema>;

/** Every variable the server reads (the deployment files' test holds them to this list). */
export const envVariableNames: readonly string[] = Object.keys(EnvSchema.in.shape);

/** `memory://...` as it is; a relative folder from the repository root, whatever the cwd. */
function dataDirectory(value: string): string {
  if (value.startsWith('memory://') || isAbsolute(value)) return value;
  return resolve(repositoryRoot, value);
}

/** Some variables are missing or malformed; the message lists each of them. */
export class InvalidEnvError extends Error {
  override name = 'InvalidEnvError';
}

/** The only reader of `process.env`: parses it once and fails with every problem listed. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new InvalidEnvError(`Invalid environment:\n${problems.join('\n')}`);
  }
  return parsed.data;
}
