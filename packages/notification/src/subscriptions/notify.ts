import type { RequestContext } from '@checkline/core';
import type { AlertFacts, SystemDirectory } from '@checkline/notification-node';
import { runInTransaction } from '@checkline/core';
import type { SubscriptionEventKind } from '../db/schema.ts';
import { enqueueDeliveries } from '../delivery/enqueue.ts';
import { fetchUserProfiles } from '../delivery/user-profiles.ts';
import { insertNotifications } from '../inbox/service.ts';
import { firstMessages } from '../reminders/first-alert.ts';
import { closeAlertsEndedBy, hasOpenAlerts, openAlerts } from '../reminders/lifecycle.ts';
import type { NotificationState } from '../state.ts';
import type { SubscriptionMessage, SystemRef } from './messages.ts';
import { groupBySystems, holdsRule, principalOf, systemsBySubscriber } from './recipients.ts';
import { markEventHandled, subscriptionsConcerning } from './service.ts';
import { subscribersOf } from './team-subscribers.ts';

/** A domain event as subscriptions see it. */
export interface SubscriptionEvent {
  /** The outbox id: handled once, whatever the redeliveries. */
  eventId: string;
  kind: SubscriptionEventKind;
  /** The source plugin's read rule a subscriber must hold (`incident.incident.read`, ...). */
  sourceRule: string;
  /** Where the concerned systems, their groups and their readers are found. */
  directory: SystemDirectory;
  systemIds: readonly string[];
  /** The event's facts about `systems` (the concerned ones that still exist). */
  facts(context: RequestContext, systems: readonly SystemRef[]): AlertFacts | Promise<AlertFacts>;
  /** The message for subscribers who may read `systemIds` (the concerned ones they reach). */
  message(facts: AlertFacts, systemIds: readonly string[]): SubscriptionMessage;
  /** Why the alert is held back (a maintenance window), asked once the recipients are known. */
  suppression?(context: RequestContext): Promise<string | undefined>;
}

/**
 * The concerned systems each subscriber reaches and may read: the source plugin's read rule, and
 * the catalog rule or a team grant per system (a team-only system needs the grant), decided for
 * the principal the user would be, from auth's profiles.
 */
async function readableBySubscriber(
  context: RequestContext,
  reached: ReadonlyMap<string, ReadonlySet<string>>,
  event: SubscriptionEvent,
): Promise<Map<string, string[]>> {
  const profiles = await fetchUserProfiles(context, [...reached.keys()]);
  const readable = new Map<string, string[]>();
  for (const [userId, systems] of reached) {
    const profile = profiles.get(userId);
    if (!profile) continue;
    const principal = principalOf(profile);
    if (!holdsRule(principal, event.sourceRule)) continue;
    if (systems.size === 0) {
      readable.set(userId, []);
      continue;
    }
    const visible = await event.directory.readableBy(context, principal, [...systems]);
    if (visible.size > 0) readable.set(userId, [...visible]);
  }
  return readable;
}

/**
 * Turns one event into one notification per subscriber who may read what it concerns: in the
 * inbox and through each subscriber's external channels, or, when `suppression` answers a
 * reason, only as `skipped` deliveries carrying it. Everything is written in one transaction with
 * the event's id in `handled_events`, so a redelivered event writes nothing and a failure leaves
 * nothing behind for the retry to duplicate.
 */
export async function notifySubscribers(
  state: NotificationState,
  service: RequestContext,
  event: SubscriptionEvent,
): Promise<void> {
  await runInTransaction(service, async (inner) => {
    const context: RequestContext = { ...service, ...inner };
    if (!(await markEventHandled(context.db, event.eventId))) return;
    // Systems deleted meanwhile concern nobody any more.
    const systems = await event.directory.systemsNamed(context, event.systemIds);
    let known: Promise<AlertFacts> | undefined;
    const factsOnce = () => (known ??= Promise.resolve(event.facts(context, systems)));
    // A recovery or resolution ends the reminders, whoever still hears of the event.
    if (await hasOpenAlerts(context.db, event.kind)) {
      await closeAlertsEndedBy(context.db, await factsOnce());
    }
    if (event.systemIds.length > 0 && systems.length === 0) return;
    const systemIds = systems.map((system) => system.id);
    const groupsOfSystem = await event.directory.groupsOfSystems(context, systemIds);
    const groupIds = [...new Set([...groupsOfSystem.values()].flatMap((groups) => [...groups]))];
    const subscriptions = await subscribersOf(
      context,
      await subscriptionsConcerning(context.db, event.kind, systemIds, groupIds),
    );
    const reached = systemsBySubscriber(subscriptions, systemIds, groupsOfSystem);
    if (reached.size === 0) return;
    const readable = await readableBySubscriber(context, reached, event);
    if (readable.size === 0) return;
    const suppressedReason = await event.suppression?.(context);
    const facts = await factsOnce();
    for (const audience of groupBySystems(readable)) {
      const message = event.message(facts, audience.systemIds);
      const opened =
        suppressedReason === undefined
          ? await openAlerts(context, {
              ...audience,
              kind: event.kind,
              sourceRule: event.sourceRule,
              groupsOfSystem,
              message,
            })
          : [];
      for (const group of firstMessages(state, audience.userIds, message, opened)) {
        if (suppressedReason === undefined) {
          await insertNotifications(context.db, group.userIds, group.message);
        }
        await enqueueDeliveries(state, context, {
          kind: 'external',
          userIds: group.userIds,
          notification: group.message,
          facts: group.message.facts,
          suppressedReason,
          systemIds: audience.systemIds,
        });
      }
    }
  });
}
