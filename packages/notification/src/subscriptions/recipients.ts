import type { Principal } from '@checkline/core';

/** The part of a subscription that decides who hears about what. */
export interface SubscriptionTarget {
  /** A user (their own, or a member of a team subscribed), or an application. */
  recipientId: string;
  systemId: string | null;
  groupId: string | null;
}

/**
 * For each subscriber, the systems concerned by an event that one of their subscriptions reaches:
 * a subscription to the system, to a group containing it, or to everything. An event concerning
 * no system (an incident not attached to any) reaches the subscribers to everything, with none.
 */
export function systemsBySubscriber(
  subscriptions: readonly SubscriptionTarget[],
  concerned: readonly string[],
  groupsOfSystem: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, Set<string>> {
  const reached = new Map<string, Set<string>>();
  for (const subscription of subscriptions) {
    const systems = concerned.filter((systemId) => {
      if (subscription.systemId !== null) return subscription.systemId === systemId;
      if (subscription.groupId !== null) {
        return groupsOfSystem.get(systemId)?.has(subscription.groupId) ?? false;
      }
      return true;
    });
    const everything = subscription.systemId === null && subscription.groupId === null;
    if (systems.length === 0 && !(everything && concerned.length === 0)) continue;
    const mine = reached.get(subscription.recipientId) ?? new Set<string>();
    for (const systemId of systems) mine.add(systemId);
    reached.set(subscription.recipientId, mine);
  }
  return reached;
}

/** The part of auth's `getUserProfiles` (or `getApplicationProfiles`) answer that access decisions read. */
export interface AccessProfile {
  id: string;
  accessRules: readonly string[];
  teamIds: readonly string[];
  isAdmin: boolean;
}

/** The principal the user (or application) would be when signed in: what access checks take. */
export function principalOf(
  profile: AccessProfile,
  kind: 'user' | 'application' = 'user',
): Principal {
  return {
    kind,
    id: profile.id,
    accessRules: profile.accessRules,
    teamIds: profile.teamIds,
    isAdmin: profile.isAdmin,
  };
}

export function holdsRule(principal: Principal, rule: string): boolean {
  return principal.isAdmin || principal.accessRules.includes(rule);
}

/**
 * Users reaching the same systems get the same message: one group per distinct set, so messages
 * are built and written once per set rather than once per user. Leave out users who may read
 * nothing before calling.
 */
export function groupBySystems(
  readable: ReadonlyMap<string, readonly string[]>,
): { systemIds: string[]; userIds: string[] }[] {
  const groups = new Map<string, { systemIds: string[]; userIds: string[] }>();
  for (const [userId, systemIds] of readable) {
    const sorted = [...systemIds].sort();
    const key = sorted.join(',');
    const group = groups.get(key) ?? { systemIds: sorted, userIds: [] };
    group.userIds.push(userId);
    groups.set(key, group);
  }
  return [...groups.values()];
}
