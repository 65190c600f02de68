import { authContract } from '@checkline/auth/contract';
import type { RequestContext } from '@checkline/core';
import { pluginClient } from '@checkline/core';
import { notificationAccess } from '../access.ts';
import { holdsRule, principalOf } from '../subscriptions/recipients.ts';
import { fetchUserProfiles } from './user-profiles.ts';

/** Users read per page while looking for administrators. */
const USERS_PER_PAGE = 1_000;

/**
 * The users who administer the channels (`notification.strategy.manage`, admins included): who
 * hears that a channel keeps failing. Reads every user a page at a time, through auth.
 */
export async function channelAdministrators(context: RequestContext): Promise<string[]> {
  const auth = pluginClient(context, authContract);
  const userIds: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await auth.getUsers({ limit: USERS_PER_PAGE, cursor });
    userIds.push(...page.users.map((user) => user.id));
    cursor = page.nextCursor;
  } while (cursor !== null);
  const profiles = await fetchUserProfiles(context, userIds);
  return [...profiles.values()]
    .filter((profile) => holdsRule(principalOf(profile), notificationAccess.manageStrategies.id))
    .map((profile) => profile.id);
}
