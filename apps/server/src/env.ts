import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLoopbackHost } from '@checkline/auth';
import { parseTargetList } from '@checkline/healthcheck';
import { parseEncryptionKey } from '@checkline/notification';
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
    /** Health-check runs each server process keeps in flight. */
    CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(256),
    /** Days raw check results are kept; hourly and daily rollups stay a year. */
    CHECK_RESULT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(7),
    ACCOUNT_FAILURE_RATE_LIMIT: z.coerce.number().int().min(0).default(30),
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
