import { randomBytes } from 'node:crypto';
import type { RateLimit } from '@checkline/core';
import type { AccessRule } from '@checkline/core/contract';
import type { AnyContractRouter } from '@orpc/contract';
import type { OidcSettings, ResolvedOidcSettings } from './strategies/oidc/settings.ts';
import { resolveOidcSettings } from './strategies/oidc/settings.ts';

export type { RateLimit };

export interface AuthConfig {
  /** Public address of the API (`BASE_URL`). https makes the session cookie `Secure`. */
  baseUrl: string;
  /** Public address of the web UI (`FRONTEND_URL`), the only redirect target. Default: `baseUrl`. */
  frontendUrl?: string;
  /**
   * The first admin, created when the database has no user (`ADMIN_EMAIL`, `ADMIN_PASSWORD`).
   * Without a password one is generated and written once to the log. Default e-mail:
   * `admin@checkline.local`.
   */
  admin?: { email?: string | undefined; password?: string | undefined };
  /** The access rules of every other mounted plugin; auth adds its own. */
  accessRules?: readonly AccessRule[];
  /**
   * The contracts of every other mounted plugin; auth adds its own. They tell which rules only
   * reads need (the only ones the `anonymous` role may hold) and which resource types exist.
   */
  contracts?: readonly AnyContractRouter[];
  rateLimits?: {
    /** Failed authentications per client address. Default 20 per minute; `false` turns it off. */
    failedAuthPerIp?: RateLimit | false;
    /**
     * Failed sign-ins (and wrong current passwords) per account, from any client that has not
     * signed in to it before. Default 30 per hour; `false` turns it off.
     */
    failedLoginsPerAccount?: RateLimit | false;
    /**
     * Failed sign-ins per account from one address, from clients that have not signed in to it
     * before. Default 10 per hour; `false` turns it off.
     */
    failedLoginsPerAccountAndAddress?: RateLimit | false;
    /**
     * Failed sign-ins per device that signed in to the account before (its device cookie);
     * these count against neither budget above. Default 10 per hour; `false` turns it off.
     */
    failedLoginsPerDevice?: RateLimit | false;
    /** Calls per application key. Default 6000 per minute; `false` turns it off. */
    callsPerKey?: RateLimit | false;
  };
  /**
   * Keep every rate limit in this process even on PostgreSQL, so N processes give N budgets. Only
   * for measuring what sharing costs (the bench's baseline). Default false: shared on PostgreSQL.
   */
  rateLimitsInProcess?: boolean;
  /**
   * Behind a reverse proxy that appends the client's address to `X-Forwarded-For`: take the
   * address from its last entry (a missing or unparsable one counts as the proxy's own
   * address). Default false: the socket's address.
   */
  trustProxy?: boolean;
  /**
   * Keys that sign device cookies: the first signs, any verifies (the server derives them from
   * its encryption keyring). Default: one random key for this process.
   */
  deviceCookieKeys?: readonly Uint8Array[];
  sessions?: {
    /** A session unused this long ends. Default 7 days. */
    idleSeconds?: number;
    /** No session lives longer, however used. Default 30 days. */
    maxAgeSeconds?: number;
  };
  /** Sign-in with an OpenID Connect provider; without it that strategy is not offered. */
  oidc?: OidcSettings | undefined;
  cache?: {
    /** How long a verified key or session is trusted without the database. Default 60 s. */
    principalTtlSeconds?: number;
    /** Most keys and sessions kept. Default 10 000. */
    maxPrincipals?: number;
    /** How long team grants are kept; changes made by this process apply at once. Default 5 s. */
    grantsTtlSeconds?: number;
  };
}

export interface ResolvedAuthConfig {
  baseUrl: string;
  frontendUrl: string;
  /** Origins a cookie-authenticated change may come from. */
  allowedOrigins: ReadonlySet<string>;
  secureCookie: boolean;
  admin: { email: string; password: string | undefined };
  accessRules: readonly AccessRule[];
  contracts: readonly AnyContractRouter[];
  rateLimits: {
    failedAuthPerIp: RateLimit | false;
    failedLoginsPerAccount: RateLimit | false;
    failedLoginsPerAccountAndAddress: RateLimit | false;
    failedLoginsPerDevice: RateLimit | false;
    callsPerKey: RateLimit | false;
  };
  rateLimitsInProcess: boolean;
  trustProxy: boolean;
  deviceCookieKeys: readonly Uint8Array[];
  sessions: { idleSeconds: number; maxAgeSeconds: number };
  oidc: ResolvedOidcSettings | undefined;
  cache: { principalTtlMs: number; maxPrincipals: number; grantsTtlMs: number };
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function resolveAuthConfig(config: AuthConfig): ResolvedAuthConfig {
  const baseUrl = trimSlash(new URL(config.baseUrl).toString());
  const frontendUrl = trimSlash(new URL(config.frontendUrl ?? baseUrl).toString());
  return {
    baseUrl,
    frontendUrl,
    allowedOrigins: new Set([new URL(baseUrl).origin, new URL(frontendUrl).origin]),
    secureCookie: new URL(baseUrl).protocol === 'https:',
    admin: {
      email: (config.admin?.email ?? 'admin@checkline.local').toLowerCase(),
      password: config.admin?.password,
    },
    accessRules: config.accessRules ?? [],
    contracts: config.contracts ?? [],
    rateLimits: {
      failedAuthPerIp: config.rateLimits?.failedAuthPerIp ?? { points: 20, durationSeconds: 60 },
      failedLoginsPerAccount: config.rateLimits?.failedLoginsPerAccount ?? {
        points: 30,
        durationSeconds: 3_600,
      },
      failedLoginsPerAccountAndAddress: config.rateLimits?.failedLoginsPerAccountAndAddress ?? {
        points: 10,
        durationSeconds: 3_600,
      },
      failedLoginsPerDevice: config.rateLimits?.failedLoginsPerDevice ?? {
        points: 10,
        durationSeconds: 3_600,
      },
      callsPerKey: config.rateLimits?.callsPerKey ?? { points: 6_000, durationSeconds: 60 },
    },
    rateLimitsInProcess: config.rateLimitsInProcess ?? false,
    trustProxy: config.trustProxy ?? false,
    deviceCookieKeys: config.deviceCookieKeys?.length ? config.deviceCookieKeys : [randomBytes(32)],
    sessions: {
      idleSeconds: config.sessions?.idleSeconds ?? 7 * 24 * 60 * 60,
      maxAgeSeconds: config.sessions?.maxAgeSeconds ?? 30 * 24 * 60 * 60,
    },
    oidc: config.oidc && resolveOidcSettings(config.oidc),
    cache: {
      principalTtlMs: (config.cache?.principalTtlSeconds ?? 60) * 1000,
      maxPrincipals: config.cache?.maxPrincipals ?? 10_000,
      grantsTtlMs: (config.cache?.grantsTtlSeconds ?? 5) * 1000,
    },
  };
}
