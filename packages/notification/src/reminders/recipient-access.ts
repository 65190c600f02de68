import type { RequestContext } from '@checkline/core';
import { fetchUserProfiles } from '../delivery/user-profiles.ts';
import type { NotificationState } from '../state.ts';
import { holdsRule, principalOf } from '../subscriptions/recipients.ts';

/**
 * Whether `userId` may still read everything an alert names: the source's read rule, and each of
 * its systems as the system directory decides (fail closed: no directory, no systems).
 */
export async function mayReadAlert(
  state: NotificationState,
  context: RequestContext,
  userId: string,
  alert: { sourceRule: string; systemIds: readonly string[] },
): Promise<boolean> {
  const profile = (await fetchUserProfiles(context, [userId])).get(userId);
  if (!profile) return false;
  const principal = principalOf(profile);
  if (!holdsRule(principal, alert.sourceRule)) return false;
  if (alert.systemIds.length === 0) return true;
  const directory = state.sources.directory();
  if (!directory) return false;
  const visible = await directory.readableBy(context, principal, [...alert.systemIds]);
  return alert.systemIds.every((id) => visible.has(id));
}
