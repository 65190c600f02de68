import { conflict, keysetPages, notFound } from '@checkline/core';
import type { Database } from '@checkline/db';
import { keysetOrder } from '@checkline/db';
import { and, arrayContains, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { SubscriptionEventKind } from '../db/schema.ts';
import { handledEvents, subscriptions } from '../db/schema.ts';
import type { SubscriptionTarget } from './recipients.ts';
import type { CreateSubscriptionInput, Subscription } from './schemas.ts';

type SubscriptionRow = typeof subscriptions.$inferSelect;

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    systemId: row.systemId,
    groupId: row.groupId,
    events: row.events,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Subscribes `userId`; a second subscription to the same target (system, group, or everything)
 * is CONFLICT rather than a silent merge, so a client never believes it changed the kinds of
 * events of the existing one. The caller has checked that the target exists and is readable.
 */
export async function createSubscription(
  db: Database,
  userId: string,
  input: CreateSubscriptionInput,
): Promise<Subscription> {
  const [row] = await db
    .insert(subscriptions)
    .values({
      userId,
      systemId: input.systemId ?? null,
      groupId: input.groupId ?? null,
      events: [...new Set(input.events)],
    })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    const target = input.systemId
      ? `system ${input.systemId}`
      : input.groupId
        ? `group ${input.groupId}`
        : 'everything you can read';
    throw conflict(`You are already subscribed to ${target}; delete that subscription first`);
  }
  return toSubscription(row);
}

const subscriptionPages = keysetPages(
  'notification.subscriptions',
  keysetOrder([subscriptions.createdAt, subscriptions.id], 'desc'),
);

/** A page of the user's subscriptions, newest first. */
export async function listSubscriptions(
  db: Database,
  userId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ subscriptions: Subscription[]; nextCursor: string | null }> {
  const { rows, nextCursor } = await subscriptionPages.read(db, subscriptions, {
    ...page,
    where: eq(subscriptions.userId, userId),
  });
  return { subscriptions: rows.map(toSubscription), nextCursor };
}

/** Deletes one of the user's subscriptions; another user's answers NOT_FOUND like a missing one. */
export async function deleteSubscription(db: Database, userId: string, id: string) {
  const [row] = await db
    .delete(subscriptions)
    .where(and(eq(subscriptions.id, id), eq(subscriptions.userId, userId)))
    .returning({ id: subscriptions.id });
  if (!row) throw notFound('Subscription', id);
  return { id: row.id, deleted: true as const };
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
): Promise<SubscriptionTarget[]> {
  return db
    .select({
      userId: subscriptions.userId,
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
