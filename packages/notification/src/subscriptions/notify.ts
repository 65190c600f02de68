import { catalogAccess, SYSTEM_RESOURCE } from '@checkline/catalog';
import type { RequestContext } from '@checkline/core';
import { runInTransaction } from '@checkline/core';
import type { SubscriptionEventKind } from '../db/schema.ts';
import { enqueueDeliveries } from '../delivery/enqueue.ts';
import { fetchUserProfiles } from '../delivery/user-profiles.ts';
import { insertNotifications } from '../inbox/service.ts';
import type { NotificationState } from '../state.ts';
import { groupsOfSystems, systemsNamed } from './catalog-lookups.ts';
import type { SubscriptionMessage, SystemRef } from './messages.ts';
import { groupBySystems, holdsRule, principalOf, systemsBySubscriber } from './recipients.ts';
import { markEventHandled, subscriptionsConcerning } from './service.ts';

/** A domain event as subscriptions see it. */
export interface SubscriptionEvent {
  /** The outbox id: handled once, whatever the redeliveries. */
  eventId: string;
  kind: SubscriptionEventKind;
  /** The source plugin's read rule a subscriber must hold (`incident.incident.read`, ...). */
  sourceRule: string;
  systemIds: readonly string[];
  /** The message for subscribers who may read `systems` (the concerned ones they reach). */
  message(systems: readonly SystemRef[]): SubscriptionMessage;
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
  sourceRule: string,
): Promise<Map<string, string[]>> {
  const profiles = await fetchUserProfiles(context, [...reached.keys()]);
  const readable = new Map<string, string[]>();
  for (const [userId, systems] of reached) {
    const profile = profiles.get(userId);
    if (!profile) continue;
    const principal = principalOf(profile);
    if (!holdsRule(principal, sourceRule)) continue;
    if (systems.size === 0) {
      readable.set(userId, []);
      continue;
    }
    const visible = await context.resources.visible(
      context.db,
      principal,
      SYSTEM_RESOURCE,
      [...systems],
      'read',
      holdsRule(principal, catalogAccess.read.id),
    );
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
    const systems = await systemsNamed(context, event.systemIds);
    if (event.systemIds.length > 0 && systems.length === 0) return;
    const systemIds = systems.map((system) => system.id);
    const groupsOfSystem = await groupsOfSystems(context, systemIds);
    const groupIds = [...new Set([...groupsOfSystem.values()].flatMap((groups) => [...groups]))];
    const subscriptions = await subscriptionsConcerning(
      context.db,
      event.kind,
      systemIds,
      groupIds,
    );
    const reached = systemsBySubscriber(subscriptions, systemIds, groupsOfSystem);
    if (reached.size === 0) return;
    const readable = await readableBySubscriber(context, reached, event.sourceRule);
    if (readable.size === 0) return;
    const suppressedReason = await event.suppression?.(context);
    for (const audience of groupBySystems(readable)) {
      const message = event.message(
        systems.filter((system) => audience.systemIds.includes(system.id)),
      );
      if (suppressedReason === undefined) {
        await insertNotifications(context.db, audience.userIds, message);
      }
      await enqueueDeliveries(state, context, {
        kind: 'external',
        userIds: audience.userIds,
        notification: message,
        suppressedReason,
      });
    }
  });
}
