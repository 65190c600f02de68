import type { Database } from '@checkline/db';
import type { ResourceAccessLevel } from './meta.ts';
import type { Principal } from './principal.ts';

/**
 * Team access to single resources (docs/security.md), filled by the auth plugin.
 * - `global`: the resource has no team grants, so the global access rule decides;
 * - `allow`: a team the caller is in holds a sufficient grant;
 * - `deny`: the resource is team-only and no team of the caller holds a grant.
 */
export type ResourceDecision = 'allow' | 'deny' | 'global';

/**
 * Every method reads through `db`: the caller's database or the transaction it runs in. Inside a
 * transaction nothing may wait for another connection (PGlite has only one; a pool would hold two
 * per call), so there is no other database to read from.
 */
export interface ResourceAccess {
  decide(
    db: Database,
    principal: Principal,
    resourceType: string,
    resourceId: string,
    level: ResourceAccessLevel,
  ): Promise<ResourceDecision>;
  /** The ids among `ids` that the caller may see, given whether it holds the global rule. */
  visible(
    db: Database,
    principal: Principal,
    resourceType: string,
    ids: readonly string[],
    level: ResourceAccessLevel,
    holdsGlobalRule: boolean,
  ): Promise<ReadonlySet<string>>;
  /**
   * Every team-only resource of the type that no team of the caller may reach at `level`: what is
   * attached to them is out of the caller's reach whatever rules it holds. None for admins.
   */
  restricted(
    db: Database,
    principal: Principal,
    resourceType: string,
    level: ResourceAccessLevel,
  ): Promise<ReadonlySet<string>>;
}

/** Until teams exist: no resource has grants, the global rule decides everything. */
export const globalRulesOnly: ResourceAccess = {
  decide: async () => 'global',
  visible: async (_db, _principal, _type, ids, _level, holdsGlobalRule) =>
    new Set(holdsGlobalRule ? ids : []),
  restricted: async () => new Set(),
};
