import type { UserProfile } from '@checkline/auth';
import { authContract } from '@checkline/auth/contract';
import type { RequestContext } from '@checkline/core';
import { pluginClient } from '@checkline/core';

/** getUserProfiles takes at most this many ids per call. */
const PROFILES_PER_CALL = 10_000;

/** The auth plugin's profiles of `userIds`, by id; unknown users are absent. */
export async function fetchUserProfiles(
  context: RequestContext,
  userIds: readonly string[],
): Promise<Map<string, UserProfile>> {
  const auth = pluginClient(context, authContract);
  const byId = new Map<string, UserProfile>();
  const ids = [...new Set(userIds)];
  for (let start = 0; start < ids.length; start += PROFILES_PER_CALL) {
    const { profiles } = await auth.getUserProfiles({
      userIds: ids.slice(start, start + PROFILES_PER_CALL),
    });
    for (const profile of profiles) byId.set(profile.id, profile);
  }
  return byId;
}

/** Profiles of the existing users among `userIds`, and the ids no user has (in request order). */
export async function recipientsOf(
  context: RequestContext,
  userIds: readonly string[],
): Promise<{ profiles: Map<string, UserProfile>; unknownUserIds: string[] }> {
  const profiles = await fetchUserProfiles(context, userIds);
  const unknownUserIds = [...new Set(userIds)].filter((id) => !profiles.has(id));
  return { profiles, unknownUserIds };
}
