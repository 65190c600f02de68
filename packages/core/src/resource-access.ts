import type { ResourceAccessLevel } from './meta.ts';
import type { Principal } from './principal.ts';

/**
 * Team access to single resources (API.md 2), filled by the auth plugin.
 * - `global`: the resource has no team grants, so the global access rule decides;
 * - `allow`: a team the caller is in holds a sufficient grant;
 * - `deny`: the resource is team-only and no team of the caller holds a grant.
 */
export type ResourceDecision = 'allow' | 'deny' | 'global';

export interface ResourceAccess {
  decide(
    principal: Principal,
    resourceType: string,
    resourceId: string,
    level: ResourceAccessLevel,
  ): Promise<ResourceDecision>;
  /** The ids among `ids` that the caller may see, given whether it holds the global rule. */
  visible(
    principal: Principal,
    resourceType: string,
    ids: readonly string[],
    level: ResourceAccessLevel,
    holdsGlobalRule: boolean,
  ): Promise<ReadonlySet<string>>;
}

/** Until teams exist: no resource has grants, the global rule decides everything. */
export const globalRulesOnly: ResourceAccess = {
  decide: async () => 'global',
  visible: async (_principal, _type, ids, _level, holdsGlobalRule) =>
    new Set(holdsGlobalRule ? ids : []),
};
