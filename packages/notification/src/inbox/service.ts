import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import { notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder, queryRows } from '@checkline/db';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { inbox, storedAction } from '../db/schema.ts';
import { INBOX_CHANNEL, NEW_ROWS_PER_NOTIFY, notifyUnread } from './changes.ts';
import type {
  GetNotificationsInput,
  InAppNotification,
  MarkAsReadInput,
  NotificationInput,
} from './schemas.ts';

type InboxRow = typeof inbox.$inferSelect;

export function toInAppNotification(row: InboxRow): InAppNotification {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.body,
    importance: row.importance,
    action: storedAction(row),
    read: row.readAt !== null,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Puts `notification` in the inbox of each user (repeated ids once) and announces the new rows
 * to open streams, in ONE statement whatever the number of users: the insert, and the
 * `pg_notify` calls in chunks that fit PostgreSQL's payload limit. Call it inside the caller's
 * transaction: a rollback leaves neither rows nor announcements. Answers how many rows it wrote.
 */
export async function insertNotifications(
  db: Database,
  userIds: readonly string[],
  notification: NotificationInput,
): Promise<number> {
  const distinct = [...new Set(userIds)];
  if (distinct.length === 0) return 0;
  const { title, body, importance, action, type } = notification;
  const [result] = await queryRows<{ written: number }>(
    db,
    sql`with written as (
        insert into ${inbox} (user_id, type, title, body, importance, action_label, action_url)
        select user_id, ${type}, ${title}, ${body ?? ''}, ${importance ?? 'info'},
          ${action?.label ?? null}::text, ${action?.url ?? null}::text
        from unnest(${sql.param(distinct)}::uuid[]) as ids(user_id)
        returning id, user_id
      ), numbered as (
        select id, user_id, row_number() over () - 1 as position from written
      ), chunks as (
        select string_agg(user_id::text || '/' || id::text, ' ') as pairs, count(*) as size
        from numbered group by position / ${NEW_ROWS_PER_NOTIFY}
      ), announced as (
        select size, pg_notify(${INBOX_CHANNEL}, 'new:' || pairs)::text as done from chunks
      )
      select coalesce(sum(size), 0)::int as written from announced where done is not null`,
  );
  return result?.written ?? 0;
}

const inboxPages = keysetPages(
  'notification.inbox',
  keysetOrder([inbox.createdAt, inbox.id], 'desc'),
);

/** A page of `userId`'s notifications, newest first. */
export async function listNotifications(
  db: Database,
  userId: string,
  input: GetNotificationsInput,
  scope: PageScope,
) {
  const where = and(eq(inbox.userId, userId), input.unreadOnly ? isNull(inbox.readAt) : undefined);
  const { items, nextCursor } = await inboxPages.read(
    db,
    inbox,
    { ...input, where },
    scope,
    (rows) => rows.map(toInAppNotification),
  );
  return { notifications: items, nextCursor };
}

export async function countUnread(db: Database, userId: string): Promise<number> {
  return db.$count(inbox, and(eq(inbox.userId, userId), isNull(inbox.readAt)));
}

/** Unread counts of several users at once; users without unread rows are absent. */
export async function countUnreadByUser(
  db: Database,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: inbox.userId, count: sql<number>`count(*)::int` })
    .from(inbox)
    .where(and(inArray(inbox.userId, [...userIds]), isNull(inbox.readAt)))
    .groupBy(inbox.userId);
  return new Map(rows.map((row) => [row.userId, row.count]));
}

/** Announces a change of `userId`'s unread count at commit. */
async function announceUnread(db: Database, userId: string) {
  await db.execute(sql`select ${notifyUnread(userId)}`);
}

/**
 * Marks the given notifications of `userId`, or all of them, as read. Ids of other users' rows
 * change nothing. Answers how many changed and the unread count after.
 */
export async function markAsRead(db: Database, userId: string, input: MarkAsReadInput) {
  const changed = await db
    .update(inbox)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(inbox.userId, userId),
        isNull(inbox.readAt),
        'ids' in input ? inArray(inbox.id, [...new Set(input.ids)]) : undefined,
      ),
    )
    .returning({ id: inbox.id });
  if (changed.length > 0) await announceUnread(db, userId);
  return { updated: changed.length, unreadCount: await countUnread(db, userId) };
}

/** Deletes one of `userId`'s notifications; another user's is NOT_FOUND like a missing one. */
export async function deleteNotification(db: Database, userId: string, id: string) {
  const [deleted] = await db
    .delete(inbox)
    .where(and(eq(inbox.id, id), eq(inbox.userId, userId)))
    .returning({ readAt: inbox.readAt });
  if (!deleted) throw notFound('Notification', id);
  if (deleted.readAt === null) await announceUnread(db, userId);
  return { id, deleted: true as const };
}

/**
 * Deletes notifications written before `cutoff`, `chunkSize` rows per statement (each its own
 * short transaction on the root database), so a huge purge never holds one long transaction.
 * Users who lost unread rows hear their new count. Answers how many rows went.
 */
export async function purgeNotificationsBefore(
  db: Database,
  cutoff: Date,
  chunkSize = 5_000,
): Promise<number> {
  let total = 0;
  for (;;) {
    const [result] = await queryRows<{ purged: number }>(
      db,
      sql`with gone as (
          delete from ${inbox} where ${inbox.id} in (
            select ${inbox.id} from ${inbox} where ${inbox.createdAt} < ${cutoff.toISOString()}::timestamptz
            limit ${chunkSize})
          returning user_id, read_at
        ), announced as (
          select ${notifyUnread(sql`user_id`)}::text as done
          from (select distinct user_id from gone where read_at is null) unread
        )
        select (select count(*) from gone)::int as purged,
          (select count(*) from announced where done is not null)::int as announced`,
    );
    const purged = result?.purged ?? 0;
    total += purged;
    if (purged < chunkSize) return total;
  }
}
