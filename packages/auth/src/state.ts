import type { Logger, RequestContext } from '@checkline/core';
import { silentLogger } from '@checkline/core';
import type { Database } from '@checkline/db';
import { AccessRuleCatalog } from './access-rule-catalog.ts';
import { authAccess } from './access.ts';
import { Authenticator } from './authenticate.ts';
import { ContractFacts } from './contract-facts.ts';
import { authContract } from './contract.ts';
import type { AuthConfig, ResolvedAuthConfig } from './config.ts';
import { resolveAuthConfig } from './config.ts';
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
  readonly authenticator: Authenticator;
  readonly teamAccess: TeamAccess;
  readonly strategies = new StrategyRegistry();
  #db: Database | undefined;
  #logger: Logger = silentLogger;

  constructor(config: AuthConfig) {
    this.config = resolveAuthConfig(config);
    this.catalog = new AccessRuleCatalog([
      ...Object.values(authAccess),
      ...this.config.accessRules,
    ]);
    this.facts = new ContractFacts([authContract, ...this.config.contracts]);
    this.limits = new RateLimits(this.config.rateLimits);
    const db = () => this.db;
    this.authenticator = new Authenticator({
      db,
      logger: () => this.#logger,
      config: this.config,
      catalog: this.catalog,
      limits: this.limits,
    });
    this.teamAccess = new TeamAccess(this.config.cache.grantsTtlMs);
  }

  /** Called in the init phase with the root database. */
  attach(db: Database, logger: Logger): void {
    this.#db = db;
    this.#logger = logger;
  }

  get db(): Database {
    if (!this.#db) throw new Error('The auth plugin is used before its init phase');
    return this.#db;
  }

  get logger(): Logger {
    return this.#logger;
  }

  /**
   * Runs an invalidation now and again once the call's transaction commits: the first stops this
   * process trusting the old state at once, the second drops anything re-read before the commit.
   */
  invalidate(context: RequestContext, forget: () => void): void {
    forget();
    context.afterCommit(forget);
  }
}
