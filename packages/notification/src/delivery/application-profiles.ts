import type { ApplicationProfile } from '@checkline/auth';
import { authContract } from '@checkline/auth/contract';
import type { RequestContext } from '@checkline/core';
import { pluginClient } from '@checkline/core';

/** getApplicationProfiles takes at most this many ids per call. */
const PROFILES_PER_CALL = 10_000;

/**
 * The auth plugin's profiles of `applicationIds`, by id; unknown, deleted and expired
 * applications are absent.
 */
export async function fetchApplicationProfiles(
  context: RequestContext,
  applicationIds: readonly string[],
): Promise<Map<string, ApplicationProfile>> {
  const auth = pluginClient(context, authContract);
  const byId = new Map<string, ApplicationProfile>();
  const ids = [...new Set(applicationIds)];
  for (let start = 0; start < ids.length; start += PROFILES_PER_CALL) {
    const { profiles } = await auth.getApplicationProfiles({
      applicationIds: ids.slice(start, start + PROFILES_PER_CALL),
    });
    for (const profile of profiles) byId.set(profile.id, profile);
  }
  return byId;
}
