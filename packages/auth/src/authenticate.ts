import { anonymousPrincipal, unauthorized } from '@checkline/core/contract';
import type { Principal } from '@checkline/core/contract';
import type { Logger } from '@checkline/core';
import type { Database } from '@checkline/db';
import { ORPCError } from '@orpc/contract';
import type { AccessRuleCatalog } from './access-rule-catalog.ts';
import { hashApiKey, parseApiKey, sameHash } from './api-key.ts';
import type { KeyRecord } from './applications.ts';
import { findKeyRecord, recordApplicationUse } from './applications.ts';
import { BoundedCache } from './bounded-cache.ts';
import type { ResolvedAuthConfig } from './config.ts';
import { SESSION_COOKIE, readCookie } from './cookies.ts';
import { assertSameOriginChange } from './csrf.ts';
import { loadAnonymousRules, loadPrincipal } from './principals.ts';
import type { RateLimits } from './rate-limit.ts';
import { clientIp } from './rate-limit.ts';
import { findActiveSession, hashSessionToken, isWellFormedSessionToken } from './sessions.ts';

/** lastUsedAt is written at most this often per application. */
const TOUCH_EVERY_MS = 60_000;

interface Cached {
  principal: Principal;
}

export interface AuthenticatorDeps {
  db: () => Database;
  logger: () => Logger;
  config: ResolvedAuthConfig;
  catalog: AccessRuleCatalog;
  limits: RateLimits;
  /** Hears each lookup in the key and session caches (`GET /metrics`). */
  recordLookup?: (cache: 'keys' | 'sessions', hit: boolean) => void;
}

const invalidKey = () => unauthorized('Invalid or expired API key');
const invalidSession = () => unauthorized('Invalid or expired session');

/** When a key hash is still accepted: the current key until its expiry, the previous one until its grace ends. */
function keyValidUntil(record: KeyRecord, hash: string, now: number): number | undefined {
  const expiry = record.expiresAt?.getTime() ?? Infinity;
  if (expiry <= now) return undefined;
  if (sameHash(hash, record.secretHash)) return expiry;
  const graceEnds = record.previousSecretExpiresAt?.getTime() ?? 0;
  if (record.previousSecretHash && graceEnds > now && sameHash(hash, record.previousSecretHash)) {
    return Math.min(expiry, graceEnds);
  }
  return undefined;
}

/**
 * Turns a request's credentials into a principal, for every surface: a bearer API key, else the
 * session cookie, else the anonymous principal. Present but invalid credentials are UNAUTHORIZED,
 * never anonymous. Verified keys and sessions are kept in-process (bounded, time-limited) and
 * dropped at once when this process changes what they stand for.
 */
export class Authenticator {
  readonly #keys: BoundedCache<Cached>;
  readonly #sessions: BoundedCache<Cached>;
  #anonymousRules: { rules: Promise<string[]>; expiresAt: number } | undefined;
  /** Bumped by every invalidation: a verification that started before one must not be cached. */
  #epoch = 0;
  readonly #touched = new Map<string, number>();
  readonly #pendingWrites = new Set<Promise<void>>();
  /** Which session each user principal stands for (a handler ends the others, not its own). */
  readonly #sessionOfPrincipal = new WeakMap<Principal, string>();

  constructor(private readonly deps: AuthenticatorDeps) {
    const { maxPrincipals } = deps.config.cache;
    this.#keys = new BoundedCache(maxPrincipals, Date.now, (hit) =>
      deps.recordLookup?.('keys', hit),
    );
    this.#sessions = new BoundedCache(maxPrincipals, Date.now, (hit) =>
      deps.recordLookup?.('sessions', hit),
    );
  }

  async resolve(request: Request): Promise<Principal> {
    const authorization = request.headers.get('authorization');
    if (authorization !== null) {
      return this.#counted(request, () => this.#fromAuthorization(authorization));
    }
    const token = readCookie(request, SESSION_COOKIE);
    if (token) {
      this.assertCookieChangeAllowed(request);
      return this.#counted(request, () => this.#fromSession(token));
    }
    return anonymousPrincipal(await this.anonymousRules());
  }

  /**
   * The one rule for a request that carries the session cookie: a change must come from one of
   * our origins, as JSON. Every surface and raw route that acts with the cookie goes through it.
   */
  assertCookieChangeAllowed(request: Request): void {
    if (readCookie(request, SESSION_COOKIE) === undefined) return;
    assertSameOriginChange(request, this.deps.config.allowedOrigins);
  }

  /** The principal of a session token, or undefined; for routes that only read the cookie. */
  async sessionPrincipal(token: string): Promise<Principal | undefined> {
    try {
      return await this.#fromSession(token);
    } catch {
      return undefined;
    }
  }

  anonymousRules(): Promise<string[]> {
    const now = Date.now();
    if (!this.#anonymousRules || this.#anonymousRules.expiresAt <= now) {
      const rules = loadAnonymousRules(this.deps.db());
      rules.catch(() => (this.#anonymousRules = undefined));
      this.#anonymousRules = { rules, expiresAt: now + this.deps.config.cache.principalTtlMs };
    }
    return this.#anonymousRules.rules;
  }

  /** The application's key changed, was deleted, or its roles or teams changed. */
  forgetApplication(applicationId: string): void {
    this.#epoch++;
    this.#keys.deleteTag(applicationId);
    this.#touched.delete(applicationId);
  }

  /** The user's sessions, roles or teams changed. */
  forgetUser(userId: string): void {
    this.#epoch++;
    this.#sessions.deleteTag(userId);
  }

  forgetSession(tokenHash: string): void {
    this.#epoch++;
    this.#sessions.delete(tokenHash);
  }

  /** A role's rules changed: every principal may be affected. */
  forgetAll(): void {
    this.#epoch++;
    this.#keys.clear();
    this.#sessions.clear();
    this.#anonymousRules = undefined;
  }

  /** Waits for lastUsedAt writes in flight (before the database closes). */
  async settled(): Promise<void> {
    await Promise.all(this.#pendingWrites);
  }

  /**
   * Failed authentications count against the client address's budget, and past it are refused
   * with TOO_MANY_REQUESTS. Valid credentials are never refused for their address's failures.
   */
  async #counted(request: Request, authenticate: () => Promise<Principal>): Promise<Principal> {
    try {
      return await authenticate();
    } catch (error) {
      if (error instanceof ORPCError && error.code === 'UNAUTHORIZED') {
        const address = clientIp(request, this.deps.config.trustProxy);
        await this.deps.limits.recordFailure({ address });
      }
      throw error;
    }
  }

  /** The token hash of the session a user principal was resolved from, if it came from one. */
  sessionOf(principal: Principal): string | undefined {
    return this.#sessionOfPrincipal.get(principal);
  }

  async #fromAuthorization(header: string): Promise<Principal> {
    const match = /^Bearer +(\S+) *$/i.exec(header);
    const key = match?.[1];
    const applicationId = key === undefined ? undefined : parseApiKey(key);
    if (key === undefined || applicationId === undefined) throw invalidKey();
    const hash = hashApiKey(key);
    const principal =
      this.#keys.get(hash)?.principal ?? (await this.#verifyKey(applicationId, hash));
    await this.deps.limits.recordCall(applicationId);
    this.#touch(applicationId);
    return principal;
  }

  async #verifyKey(applicationId: string, hash: string): Promise<Principal> {
    const epoch = this.#epoch;
    const db = this.deps.db();
    const record = await findKeyRecord(db, applicationId);
    const now = Date.now();
    const validUntil = record && keyValidUntil(record, hash, now);
    if (!validUntil) throw invalidKey();
    const principal = await loadPrincipal(
      db,
      'application',
      applicationId,
      this.deps.catalog,
      await this.anonymousRules(),
    );
    if (epoch === this.#epoch) {
      const expiresAt = Math.min(validUntil, now + this.deps.config.cache.principalTtlMs);
      this.#keys.set(hash, { principal }, expiresAt, applicationId);
    }
    return principal;
  }

  async #fromSession(token: string): Promise<Principal> {
    if (!isWellFormedSessionToken(token)) throw invalidSession();
    const hash = hashSessionToken(token);
    const cached = this.#sessions.get(hash);
    if (cached) return cached.principal;
    const epoch = this.#epoch;
    const db = this.deps.db();
    const session = await findActiveSession(db, hash, this.deps.config.sessions);
    if (!session) throw invalidSession();
    const principal = await loadPrincipal(
      db,
      'user',
      session.userId,
      this.deps.catalog,
      await this.anonymousRules(),
    );
    if (epoch === this.#epoch) {
      const expiresAt = Math.min(
        session.expiresAt.getTime(),
        Date.now() + this.deps.config.cache.principalTtlMs,
      );
      this.#sessions.set(hash, { principal }, expiresAt, session.userId);
    }
    this.#sessionOfPrincipal.set(principal, hash);
    return principal;
  }

  #touch(applicationId: string): void {
    const now = Date.now();
    if (now - (this.#touched.get(applicationId) ?? 0) < TOUCH_EVERY_MS) return;
    this.#touched.set(applicationId, now);
    const write = recordApplicationUse(this.deps.db(), applicationId)
      .catch((error: unknown) =>
        this.deps.logger().warn({ err: error, applicationId }, 'could not record application use'),
      )
      .finally(() => this.#pendingWrites.delete(write));
    this.#pendingWrites.add(write);
  }
}
