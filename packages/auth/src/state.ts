import type { Logger, Metrics, RequestContext } from '@checkline/core';
import { silentLogger } from '@checkline/core';
import type { Database, DatabaseListen } from '@checkline/db';
import { AccessRuleCatalog } from './access-rule-catalog.ts';
import { authAccess } from './access.ts';
import { Authenticator } from './authenticate.ts';
import { ContractFacts } from './contract-facts.ts';
import { authContract } from './contract.ts';
import type { CacheInvalidation, InvalidationSource } from './cache-invalidation.ts';
import {
  announceInvalidation,
  applyInvalidation,
  listenForInvalidations,
} from './cache-invalidation.ts';
import type { AuthConfig, ResolvedAuthConfig } from './config.ts';
import { resolveAuthConfig } from './config.ts';
import { DeviceCookies } from './device-cookie.ts';
import { RateLimits } from './rate-limit.ts';
import { StrategyRegistry } from './strategies/registry.ts';
import { TeamAccess } from './team-access.ts';

/**
 * Everything one auth plugin instance keeps in memory: its settings, the rule catalog, the
 * caches and rate limiters. Each `createAuthPlugin` call has its own, so test servers share none.
 */
export class AuthState {
  readonly config: ResolvedAuthConfig;
  readonly catalog: AccessRuleCatalog;
  readonly facts: ContractFacts;
  readonly limits: RateLimits;
  readonly deviceCookies: DeviceCookies;
  readonly authenticator: Authenticator;
  readonly teamAccess: TeamAccess;
  readonly strategies = new StrategyRegistry();
  #db: Database | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  #logger: Logger = silentLogger;
  #metrics: Pick<Metrics, 'cacheLookups' | 'cacheInvalidations'> | undefined;

  constructor(config: AuthConfig) {
    this.config = resolveAuthConfig(config);
    this.catalog = new AccessRuleCatalog([
      ...Object.values(authAccess),
      ...this.config.accessRules,
    ]);
    this.facts = new ContractFacts([authContract, ...this.config.contracts]);
    this.limits = new RateLimits(this.config.rateLimits);
    this.deviceCookies = new DeviceCookies(this.config.deviceCookieKeys, this.config.secureCookie);
    const db = () => this.db;
    this.authenticator = new Authenticator({
      db,
      logger: () => this.#logger,
      config: this.config,
      catalog: this.catalog,
      limits: this.limits,
      recordLookup: (cache, hit) =>
        this.#metrics?.cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' }),
    });
    this.teamAccess = new TeamAccess(this.config.cache.grantsTtlMs);
  }

  /** Called in the init phase with the root database. */
  attach(db: Database, logger: Logger, metrics?: Metrics): void {
    this.#db = db;
    this.#logger = logger;
    this.#metrics = metrics;
  }

  /** Counts an invalidation applied here: made by this process, announced by one, or a lost listener. */
  countInvalidation(kind: CacheInvalidation['kind'], source: InvalidationSource): void {
    this.#metrics?.cacheInvalidations.inc({ kind, source });
  }

  get db(): Database {
    if (!this.#db) throw new Error('The auth plugin is used before its init phase');
    return this.#db;
  }

  get logger(): Logger {
    return this.#logger;
  }

  /**
   * Starts hearing the invalidations other processes announce; from then on this process
   * announces its own. Without it (no host listener) caches stay this process's business.
   */
  async shareInvalidations(listen: DatabaseListen): Promise<void> {
    this.#unlisten = await listenForInvalidations(listen, this);
  }

  async stopSharingInvalidations(): Promise<void> {
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    await unlisten?.();
  }

  /**
   * Runs an invalidation now and again once the call's transaction commits (the first stops this
   * process trusting the old state at once, the second drops anything re-read before the commit),
   * and announces it to every other process, delivered at that commit.
   */
  async invalidate(context: RequestContext, invalidation: CacheInvalidation): Promise<void> {
    const forget = () => applyInvalidation(this, invalidation);
    this.countInvalidation(invalidation.kind, 'local');
    forget();
    context.afterCommit(forget);
    if (this.#unlisten) await announceInvalidation(context.db, invalidation);
  }

  /** The same outside a procedure: `db` has made the change already. */
  async invalidateNow(db: Database, invalidation: CacheInvalidation): Promise<void> {
    this.countInvalidation(invalidation.kind, 'local');
    applyInvalidation(this, invalidation);
    if (this.#unlisten) await announceInvalidation(db, invalidation);
  }
}
