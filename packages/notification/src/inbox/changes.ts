import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';

/**
 * The PostgreSQL channel inbox changes are announced on. NOTIFY is transactional: listeners
 * hear a change once its transaction commits, and never one that rolled back.
 */
export const INBOX_CHANNEL = 'checkline_notification_inbox';

/**
 * New rows per notify. Each pair is `{userId}/{inboxId}` (73 characters and a space), so 100
 * stay under PostgreSQL's 8 000-byte payload limit whatever the number of users.
 */
export const NEW_ROWS_PER_NOTIFY = 100;

/** One announced change: new inbox rows (user and row), or a user's unread count moved. */
export type InboxChange =
  { kind: 'new'; rows: { userId: string; id: string }[] } | { kind: 'unread'; userId: string };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `pg_notify` announcing that `userId`'s unread count may have changed (a SQL expression). */
export function notifyUnread(userId: SQL | string): SQL {
  return sql`pg_notify(${INBOX_CHANNEL}, 'unread:' || ${userId}::text)`;
}

/** Reads a payload of {@link INBOX_CHANNEL}; anything else is ignored (undefined). */
export function parseInboxChange(payload: string): InboxChange | undefined {
  if (payload.startsWith('unread:')) {
    const userId = payload.slice('unread:'.length);
    return uuidPattern.test(userId) ? { kind: 'unread', userId } : undefined;
  }
  if (payload.startsWith('new:')) {
    const rows = payload
      .slice('new:'.length)
      .split(' ')
      .map((pair) => pair.split('/'))
      .filter(
        (pair): pair is [string, string] =>
          pair.length === 2 && uuidPattern.test(pair[0]!) && uuidPattern.test(pair[1]!),
      )
      .map(([userId, id]) => ({ userId, id }));
    return rows.length === 0 ? undefined : { kind: 'new', rows };
  }
  return undefined;
}
