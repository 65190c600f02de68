import type { Principal, RequestContext } from '@checkline/core';
import type { AlertFacts, SystemDirectory } from '@checkline/notification-node';
import { runInTransaction } from '@checkline/core';
import type { SubscriptionEventKind } from '../db/schema.ts';
import { fetchApplicationProfiles } from '../delivery/application-profiles.ts';
import { enqueueDeliveries } from '../delivery/enqueue.ts';
import { fetchUserProfiles } from '../delivery/user-profiles.ts';
import { insertNotifications } from '../inbox/service.ts';
import { firstMessages } from '../reminders/first-alert.ts';
import { closeAlertsEndedBy, hasOpenAlerts, openAlerts } from '../reminders/lifecycle.ts';
import type { NotificationState } from '../state.ts';
import type { SubscriptionMessage, SystemRef } from './messages.ts';
import { groupBySystems, holdsRule, principalOf, systemsBySubscriber } from './recipients.ts';
import { markEventHandled, subscriptionsConcerning } from './service.ts';
import type { OwnedSubscriptionTarget } from './team-subscribers.ts';
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
 * the principal the subscriber would be (`principals`, from auth's profiles; one missing there,
 * deleted meanwhile, hears nothing).
 */
async function readableBySubscriber(
  context: RequestContext,
  reached: ReadonlyMap<string, ReadonlySet<string>>,
  principals: ReadonlyMap<string, Principal>,
  event: SubscriptionEvent,
): Promise<Map<string, string[]>> {
  const readable = new Map<string, string[]>();
  for (const [subscriberId, systems] of reached) {
    const principal = principals.get(subscriberId);
    if (!principal) continue;
    if (!holdsRule(principal, event.sourceRule)) continue;
    if (systems.size === 0) {
      readable.set(subscriberId, []);
      continue;
    }
    const visible = await event.directory.readableBy(context, principal, [...systems]);
    if (visible.size > 0) readable.set(subscriberId, [...visible]);
  }
  return readable;
}

/** The principals the users among `ids` would be when signed in. */
async function userPrincipals(context: RequestContext, ids: readonly string[]) {
  const profiles = await fetchUserProfiles(context, ids);
  return new Map([...profiles].map(([id, profile]) => [id, principalOf(profile)]));
}

/** The principals the applications among `ids` are when they call with their key. */
async function applicationPrincipals(context: RequestContext, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, Principal>();
  const profiles = await fetchApplicationProfiles(context, ids);
  return new Map([...profiles].map(([id, profile]) => [id, principalOf(profile, 'application')]));
}

/**
 * The concerned systems each subscribed application reaches and may read with its own
 * principal (its roles, rules and teams, as a person's are decided).
 */
async function readableByApplications(
  context: RequestContext,
  owned: readonly OwnedSubscriptionTarget[],
  systemIds: readonly string[],
  groupsOfSystem: ReadonlyMap<string, ReadonlySet<string>>,
  event: SubscriptionEvent,
): Promise<Map<string, string[]>> {
  const targets = owned.flatMap(({ applicationId, systemId, groupId }) =>
    applicationId === null ? [] : [{ recipientId: applicationId, systemId, groupId }],
  );
  const reached = systemsBySubscriber(targets, systemIds, groupsOfSystem);
  if (reached.size === 0) return new Map();
  const principals = await applicationPrincipals(context, [...reached.keys()]);
  return readableBySubscriber(context, reached, principals, event);
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
    const owned = await subscriptionsConcerning(context.db, event.kind, systemIds, groupIds);
    const people = owned.filter((row) => row.applicationId === null);
    const reached = systemsBySubscriber(
      await subscribersOf(context, people),
      systemIds,
      groupsOfSystem,
    );
    const readable =
      reached.size === 0
        ? new Map<string, string[]>()
        : await readableBySubscriber(
            context,
            reached,
            await userPrincipals(context, [...reached.keys()]),
            event,
          );
    const applications = await readableByApplications(
      context,
      owned,
      systemIds,
      groupsOfSystem,
      event,
    );
    if (readable.size === 0 && applications.size === 0) return;
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
    // Applications: no inbox and no reminders, only the channels that reach them (the webhook).
    for (const audience of groupBySystems(applications)) {
      const message = event.message(facts, audience.systemIds);
      await enqueueDeliveries(state, context, {
        kind: 'external',
        recipientKind: 'application',
        userIds: audience.userIds,
        notification: message,
        facts: message.facts,
        suppressedReason,
        systemIds: audience.systemIds,
      });
    }
  });
}
