import { authContract } from '@checkline/auth/contract';
import type { RequestContext } from '@checkline/core';
import { notFound, pageScope, pluginClient } from '@checkline/core';
import { notificationAccess } from '../access.ts';
import { callerUserId } from '../caller.ts';
import { fetchUserProfiles } from '../delivery/user-profiles.ts';
import { os } from '../implementer.ts';
import { assertReminderPolicy } from '../reminders/policy.ts';
import type { NotificationState } from '../state.ts';
import { holdsRule } from './recipients.ts';
import type { CreateSubscriptionForInput } from './routing-schemas.ts';
import type { CreateSubscriptionInput } from './schemas.ts';
import type { ChangeableSubscriptions, SubscriptionOwner } from './service.ts';
import * as subscriptions from './service.ts';

/**
 * A subscription's target must exist and be readable by the caller, as the sources' system
 * directory decides (the catalog's: its rule or a team grant). One the caller cannot read is
 * NOT_FOUND like a missing one; with no source registered there is nothing to subscribe to.
 */
async function assertTargetReadable(
  state: NotificationState,
  context: RequestContext,
  input: CreateSubscriptionInput,
) {
  const directory = state.sources.directory();
  if (input.systemId) {
    if (!directory) throw notFound('System', input.systemId);
    await directory.assertSystemReadable(context, input.systemId);
  }
  if (input.groupId) {
    if (!directory) throw notFound('Group', input.groupId);
    await directory.assertGroupReadable(context, input.groupId);
  }
}

/** The user or team an administrator routes alerts to must exist. */
async function ownerNamed(
  context: RequestContext,
  input: CreateSubscriptionForInput,
): Promise<SubscriptionOwner> {
  if (input.userId !== undefined) {
    const profiles = await fetchUserProfiles(context, [input.userId]);
    if (!profiles.has(input.userId)) throw notFound('User', input.userId);
    return { userId: input.userId };
  }
  const { teams } = await pluginClient(context, authContract).getTeamUsers({
    teamIds: [input.teamId!],
  });
  if (teams.length === 0) throw notFound('Team', input.teamId);
  return { teamId: input.teamId! };
}

/** A caller routing alerts may change every subscription; anyone else only their own. */
const changeableBy = (context: RequestContext): ChangeableSubscriptions =>
  holdsRule(context.principal, notificationAccess.routeAlerts.id)
    ? 'any'
    : { userId: callerUserId(context) };

export function subscriptionsHandlers(state: NotificationState) {
  return {
    getMySubscriptions: os.getMySubscriptions.handler(({ context, input }) =>
      subscriptions.listSubscriptions(
        context.db,
        { userId: callerUserId(context) },
        input,
        pageScope(context),
      ),
    ),
    createSubscription: os.createSubscription.handler(async ({ context, input }) => {
      await assertTargetReadable(state, context, input);
      await assertReminderPolicy(state, context, input);
      return subscriptions.createSubscription(context.db, { userId: callerUserId(context) }, input);
    }),
    updateSubscription: os.updateSubscription.handler(({ context, input }) =>
      subscriptions.updateSubscription(context.db, changeableBy(context), input),
    ),
    deleteSubscription: os.deleteSubscription.handler(({ context, input }) =>
      subscriptions.deleteSubscription(context.db, changeableBy(context), input.id),
    ),
    getSubscriptions: os.getSubscriptions.handler(({ context, input }) =>
      subscriptions.listSubscriptions(context.db, input, input, pageScope(context)),
    ),
    createSubscriptionFor: os.createSubscriptionFor.handler(async ({ context, input }) => {
      await assertTargetReadable(state, context, input);
      await assertReminderPolicy(state, context, input);
      const owner = await ownerNamed(context, input);
      return subscriptions.createSubscription(context.db, owner, input);
    }),
  };
}
