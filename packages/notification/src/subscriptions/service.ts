import type { PageScope } from '@checkline/core';
import { conflict, keysetPages, notFound } from '@checkline/core';
import type { Database } from '@checkline/db';
import { keysetOrder } from '@checkline/db';
import { and, arrayContains, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { SubscriptionEventKind } from '../db/schema.ts';
import { handledEvents, subscriptions } from '../db/schema.ts';
import type { CreateSubscriptionInput, Subscription, UpdateSubscriptionInput } from './schemas.ts';
import type { OwnedSubscriptionTarget } from './team-subscribers.ts';

type SubscriptionRow = typeof subscriptions.$inferSelect;

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    userId: row.userId,
    teamId: row.teamId,
    applicationId: row.applicationId,
    systemId: row.systemId,
    groupId: row.groupId,
    events: row.events,
    remindEverySeconds: row.remindEverySeconds,
    escalateAfterSeconds: row.escalateAfterSeconds,
    escalateToUserId: row.escalateToUserId,
    escalateToTeamId: row.escalateToTeamId,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Who hears a subscription: one user, every current member of a team, or an application (at
 * the webhook it set).
 */
export type SubscriptionOwner = { userId: string } | { teamId: string } | { applicationId: string };

/** `User 1 is`, `Team 2 is`, `Application 3 is`: the owner as a message names it. */
function ownerNamed(owner: SubscriptionOwner): string {
  if ('userId' in owner) return `User ${owner.userId} is`;
  if ('teamId' in owner) return `Team ${owner.teamId} is`;
  return `Application ${owner.applicationId} is`;
}

/**
 * Subscribes `owner`; a second subscription of the same owner to the same target (system, group,
 * or everything) is CONFLICT rather than a silent merge, so a client never believes it changed
 * the kinds of events of the existing one (updateSubscription does). The caller has checked that
 * the owner and the target exist and that the target is readable.
 */
export async function createSubscription(
  db: Database,
  owner: SubscriptionOwner,
  input: CreateSubscriptionInput,
): Promise<Subscription> {
  const [row] = await db
    .insert(subscriptions)
    .values({
      userId: 'userId' in owner ? owner.userId : null,
      teamId: 'teamId' in owner ? owner.teamId : null,
      applicationId: 'applicationId' in owner ? owner.applicationId : null,
      systemId: input.systemId ?? null,
      groupId: input.groupId ?? null,
      events: [...new Set(input.events)],
      remindEverySeconds: input.remindEverySeconds ?? null,
      escalateAfterSeconds: input.escalateAfterSeconds ?? null,
      escalateToUserId: input.escalateToUserId ?? null,
      escalateToTeamId: input.escalateToTeamId ?? null,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    const target = input.systemId
      ? `system ${input.systemId}`
      : input.groupId
        ? `group ${input.groupId}`
        : 'everything';
    throw conflict(
      `${ownerNamed(owner)} already subscribed to ${target}; change that subscription instead`,
    );
  }
  return toSubscription(row);
}

const subscriptionPages = keysetPages(
  'notification.subscriptions',
  keysetOrder([subscriptions.createdAt, subscriptions.id], 'desc'),
);

/**
 * A page of subscriptions, newest first: of one user, team or application, or every one; only
 * those to `systemId` itself when given.
 */
export async function listSubscriptions(
  db: Database,
  filter: {
    userId?: string | undefined;
    teamId?: string | undefined;
    applicationId?: string | undefined;
    systemId?: string | undefined;
  },
  page: { limit: number; cursor?: string | null | undefined },
  scope: PageScope,
): Promise<{ subscriptions: Subscription[]; nextCursor: string | null }> {
  const where = and(
    filter.userId === undefined ? undefined : eq(subscriptions.userId, filter.userId),
    filter.teamId === undefined ? undefined : eq(subscriptions.teamId, filter.teamId),
    filter.applicationId === undefined
      ? undefined
      : eq(subscriptions.applicationId, filter.applicationId),
    filter.systemId === undefined ? undefined : eq(subscriptions.systemId, filter.systemId),
  );
  const { items, nextCursor } = await subscriptionPages.read(
    db,
    subscriptions,
    { ...page, where },
    scope,
    (rows) => rows.map(toSubscription),
  );
  return { subscriptions: items, nextCursor };
}

/**
 * Which subscriptions a caller may change: only the user's or application's own, or every one
 * (`'any'`, an administrator routing alerts). One outside answers NOT_FOUND like a missing one.
 */
export type ChangeableSubscriptions = { userId: string } | { applicationId: string } | 'any';

function ownedBy(scope: Exclude<ChangeableSubscriptions, 'any'>) {
  return 'userId' in scope
    ? eq(subscriptions.userId, scope.userId)
    : eq(subscriptions.applicationId, scope.applicationId);
}

const changeable = (id: string, scope: ChangeableSubscriptions) =>
  and(eq(subscriptions.id, id), scope === 'any' ? undefined : ownedBy(scope));

/** Replaces the kinds of events of a subscription the caller may change. */
export async function updateSubscription(
  db: Database,
  scope: ChangeableSubscriptions,
  input: UpdateSubscriptionInput,
): Promise<Subscription> {
  const [row] = await db
    .update(subscriptions)
    .set({ events: [...new Set(input.events)] })
    .where(changeable(input.id, scope))
    .returning();
  if (!row) throw notFound('Subscription', input.id);
  return toSubscription(row);
}

/** Deletes a subscription the caller may change. */
export async function deleteSubscription(db: Database, scope: ChangeableSubscriptions, id: string) {
  const [row] = await db
    .delete(subscriptions)
    .where(changeable(id, scope))
    .returning({ id: subscriptions.id });
  if (!row) throw notFound('Subscription', id);
  return { id: row.id, deleted: true as const };
}

/**
 * Deletes every subscription a deleted user, application or team held: it would reach nobody.
 * Answers how many there were.
 */
export async function forgetSubscriber(
  db: Database,
  subscriber: { kind: 'user' | 'application' | 'team'; id: string },
): Promise<number> {
  const owner = {
    user: subscriptions.userId,
    application: subscriptions.applicationId,
    team: subscriptions.teamId,
  }[subscriber.kind];
  const rows = await db
    .delete(subscriptions)
    .where(eq(owner, subscriber.id))
    .returning({ id: subscriptions.id });
  return rows.length;
}

/**
 * Subscriptions to `kind` that may reach any of `systemIds`: to one of them, to one of
 * `groupIds` (the groups holding them), or to everything (all an event naming no system
 * reaches). One statement.
 */
export async function subscriptionsConcerning(
  db: Database,
  kind: SubscriptionEventKind,
  systemIds: readonly string[],
  groupIds: readonly string[],
): Promise<OwnedSubscriptionTarget[]> {
  return db
    .select({
      userId: subscriptions.userId,
      teamId: subscriptions.teamId,
      applicationId: subscriptions.applicationId,
      systemId: subscriptions.systemId,
      groupId: subscriptions.groupId,
    })
    .from(subscriptions)
    .where(
      and(
        arrayContains(subscriptions.events, sql`array[${kind}]::text[]`),
        or(
          systemIds.length > 0 ? inArray(subscriptions.systemId, [...systemIds]) : undefined,
          groupIds.length > 0 ? inArray(subscriptions.groupId, [...groupIds]) : undefined,
          and(isNull(subscriptions.systemId), isNull(subscriptions.groupId)),
        ),
      ),
    );
}

/**
 * Records that this plugin handled `eventId`, in the caller's transaction; false when it had
 * already (a redelivery), so the handler writes nothing twice.
 */
export async function markEventHandled(db: Database, eventId: string): Promise<boolean> {
  const rows = await db
    .insert(handledEvents)
    .values({ eventId })
    .onConflictDoNothing()
    .returning({ eventId: handledEvents.eventId });
  return rows.length > 0;
}
