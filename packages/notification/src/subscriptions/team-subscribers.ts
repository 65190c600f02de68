import { authContract } from '@checkline/auth/contract';
import type { RequestContext } from '@checkline/core';
import { pluginClient } from '@checkline/core';
import type { SubscriptionTarget } from './recipients.ts';

/** A stored subscription's owner and target: a user's, a team's, or an application's. */
export interface OwnedSubscriptionTarget {
  userId: string | null;
  teamId: string | null;
  applicationId: string | null;
  systemId: string | null;
  groupId: string | null;
}

/** getTeamUsers takes at most this many team ids per call. */
const TEAMS_PER_CALL = 1_000;

/**
 * The current members of each of `teamIds` that exists, as auth answers now (a team missing from
 * the answer does not exist).
 */
export async function teamMembers(
  context: RequestContext,
  teamIds: readonly string[],
): Promise<Map<string, readonly string[]>> {
  const distinct = [...new Set(teamIds)];
  const members = new Map<string, readonly string[]>();
  if (distinct.length === 0) return members;
  const auth = pluginClient(context, authContract);
  for (let start = 0; start < distinct.length; start += TEAMS_PER_CALL) {
    const { teams } = await auth.getTeamUsers({
      teamIds: distinct.slice(start, start + TEAMS_PER_CALL),
    });
    for (const team of teams) members.set(team.id, team.userIds);
  }
  return members;
}

/**
 * Each subscription of people as the users who hear it: a user's as itself, a team's as one
 * target per user who is a member now (asked of auth when the event is handled, so a member
 * removed since hears nothing and one added since hears). Access is decided per user afterwards.
 * Applications' subscriptions are not people's: leave them out before calling (they add none).
 */
export async function subscribersOf(
  context: RequestContext,
  owned: readonly OwnedSubscriptionTarget[],
): Promise<SubscriptionTarget[]> {
  const teamIds = owned.flatMap((row) => (row.teamId === null ? [] : [row.teamId]));
  const members = await teamMembers(context, teamIds);
  return owned.flatMap(({ userId, teamId, systemId, groupId }) => {
    const userIds = userId !== null ? [userId] : teamId !== null ? (members.get(teamId) ?? []) : [];
    return userIds.map((id) => ({ recipientId: id, systemId, groupId }));
  });
}
