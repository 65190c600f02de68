import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import { notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder } from '@checkline/db';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { sentMails, subscribers } from '../db/schema.ts';
import type { GetSubscribersInput, Subscriber, SubscriberList } from './schemas.ts';
import { hashOfToken, newConfirmToken } from './tokens.ts';

type SubscriberRow = typeof subscribers.$inferSelect;

const toSubscriber = (row: SubscriberRow): Subscriber => ({
  id: row.id,
  email: row.email,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  confirmedAt: row.confirmedAt?.toISOString() ?? null,
});

/**
 * Records a wish to subscribe, pending until confirmed, and answers the confirmation token to
 * mail. A pending subscription gets a new token (the earlier link stops working); a confirmed
 * one is left alone and nothing is answered, so nothing is mailed.
 */
export async function requestSubscription(
  db: Database,
  pageId: string,
  email: string,
  expiresAt: Date,
): Promise<{ subscriberId: string; token: string } | undefined> {
  const { token, hash } = newConfirmToken();
  const [row] = await db
    .insert(subscribers)
    .values({ pageId, email, confirmTokenHash: hash, confirmExpiresAt: expiresAt })
    .onConflictDoUpdate({
      target: [subscribers.pageId, subscribers.email],
      set: { confirmTokenHash: hash, confirmExpiresAt: expiresAt },
      setWhere: sql`${subscribers.status} = 'pending'`,
    })
    .returning({ id: subscribers.id });
  return row && { subscriberId: row.id, token };
}

/**
 * Confirms the pending subscription `token` was made for, once: the token's hash is cleared in
 * the same statement. Undefined for an unknown, used or expired token (nothing changes).
 */
export async function confirmSubscription(
  db: Database,
  token: string,
  now: Date,
): Promise<{ subscriberId: string; pageId: string } | undefined> {
  const [row] = await db
    .update(subscribers)
    .set({
      status: 'confirmed',
      confirmedAt: now,
      confirmTokenHash: null,
      confirmExpiresAt: null,
    })
    .where(
      and(
        eq(subscribers.confirmTokenHash, hashOfToken(token)),
        eq(subscribers.status, 'pending'),
        gt(subscribers.confirmExpiresAt, now),
      ),
    )
    .returning({ subscriberId: subscribers.id, pageId: subscribers.pageId });
  return row;
}

/** Ends a subscription; false when there was none (already ended, or never). */
export async function removeSubscriber(db: Database, subscriberId: string): Promise<boolean> {
  const rows = await db
    .delete(subscribers)
    .where(eq(subscribers.id, subscriberId))
    .returning({ id: subscribers.id });
  return rows.length > 0;
}

/** The confirmed subscribers of the given pages. */
export async function confirmedSubscribers(db: Database, pageIds: readonly string[]) {
  if (pageIds.length === 0) return [];
  return db
    .select({ id: subscribers.id, pageId: subscribers.pageId, email: subscribers.email })
    .from(subscribers)
    .where(and(inArray(subscribers.pageId, [...pageIds]), eq(subscribers.status, 'confirmed')));
}

/** Whether `subscriberId` was mailed about `eventId` already (a redelivered event). */
export async function wasMailed(db: Database, subscriberId: string, eventId: string) {
  const rows = await db
    .select({ at: sentMails.sentAt })
    .from(sentMails)
    .where(and(eq(sentMails.subscriberId, subscriberId), eq(sentMails.eventId, eventId)));
  return rows.length > 0;
}

/** Remembers a mail sent; a subscriber deleted meanwhile leaves nothing to remember. */
export async function recordMailed(db: Database, subscriberId: string, eventId: string) {
  await db.execute(
    sql`insert into ${sentMails} (subscriber_id, event_id)
        select ${subscriberId}::uuid, ${eventId}
        where exists (select 1 from ${subscribers} where id = ${subscriberId}::uuid)
        on conflict do nothing`,
  );
}

const subscriberList = keysetPages(
  'statuspage.subscribers',
  keysetOrder([subscribers.email, subscribers.id]),
);

export async function listSubscribers(
  db: Database,
  input: GetSubscribersInput,
  scope: PageScope,
): Promise<SubscriberList> {
  const { pageId, status, ...request } = input;
  const where = and(
    eq(subscribers.pageId, pageId),
    status === undefined ? undefined : eq(subscribers.status, status),
  );
  const { items, nextCursor } = await subscriberList.read(
    db,
    subscribers,
    { ...request, where },
    scope,
    (rows) => rows.map(toSubscriber),
  );
  return { subscribers: items, nextCursor };
}

export async function deleteSubscriber(db: Database, pageId: string, id: string) {
  const [row] = await db
    .delete(subscribers)
    .where(and(eq(subscribers.pageId, pageId), eq(subscribers.id, id)))
    .returning({ id: subscribers.id });
  if (!row) throw notFound('Subscriber', id);
  return { id: row.id, deleted: true as const };
}
