import { authContract } from '@checkline/auth/contract';
import type { RequestContext } from '@checkline/core';
import { notFound, pageScope, pluginClient } from '@checkline/core';
import { notificationAccess } from '../access.ts';
import { callerRecipient } from '../caller.ts';
import { fetchApplicationProfiles } from '../delivery/application-profiles.ts';
import { fetchUserProfiles } from '../delivery/user-profiles.ts';
import { os } from '../implementer.ts';
import { assertApplicationTakesNoReminders, assertReminderPolicy } from '../reminders/policy.ts';
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

/** The user, team or application an administrator routes alerts to must exist. */
async function ownerNamed(
  context: RequestContext,
  input: CreateSubscriptionForInput,
): Promise<SubscriptionOwner> {
  if (input.userId !== undefined) {
    const profiles = await fetchUserProfiles(context, [input.userId]);
    if (!profiles.has(input.userId)) throw notFound('User', input.userId);
    return { userId: input.userId };
  }
  if (input.applicationId !== undefined) {
    const profiles = await fetchApplicationProfiles(context, [input.applicationId]);
    if (!profiles.has(input.applicationId)) throw notFound('Application', input.applicationId);
    return { applicationId: input.applicationId };
  }
  const { teams } = await pluginClient(context, authContract).getTeamUsers({
    teamIds: [input.teamId!],
  });
  if (teams.length === 0) throw notFound('Team', input.teamId);
  return { teamId: input.teamId! };
}

/** The calling user or application as the owner of its own subscriptions. */
function callerOwner(context: RequestContext): { userId: string } | { applicationId: string } {
  const caller = callerRecipient(context);
  return caller.kind === 'user' ? { userId: caller.id } : { applicationId: caller.id };
}

/** A caller routing alerts may change every subscription; anyone else only their own. */
const changeableBy = (context: RequestContext): ChangeableSubscriptions =>
  holdsRule(context.principal, notificationAccess.routeAlerts.id) ? 'any' : callerOwner(context);

/** Reminders and escalation are checked for people and teams; an application takes none. */
async function assertPolicyFor(
  state: NotificationState,
  context: RequestContext,
  owner: SubscriptionOwner,
  input: CreateSubscriptionInput,
) {
  if ('applicationId' in owner) assertApplicationTakesNoReminders(input);
  else await assertReminderPolicy(state, context, input);
}

export function subscriptionsHandlers(state: NotificationState) {
  return {
    getMySubscriptions: os.getMySubscriptions.handler(({ context, input }) =>
      subscriptions.listSubscriptions(
        context.db,
        { ...callerOwner(context), systemId: input.systemId },
        input,
        pageScope(context),
      ),
    ),
    createSubscription: os.createSubscription.handler(async ({ context, input }) => {
      const owner = callerOwner(context);
      await assertTargetReadable(state, context, input);
      await assertPolicyFor(state, context, owner, input);
      return subscriptions.createSubscription(context.db, owner, input);
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
      const owner = await ownerNamed(context, input);
      await assertPolicyFor(state, context, owner, input);
      return subscriptions.createSubscription(context.db, owner, input);
    }),
  };
}
