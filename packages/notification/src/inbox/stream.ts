import type { Database } from '@checkline/db';
import { EventQueue } from './event-queue.ts';
import type { InboxHub } from './hub.ts';
import type { InboxEvent } from './schemas.ts';
import { countUnread } from './service.ts';

/**
 * `userId`'s inbox events as they happen: the unread count first, then each new notification
 * and each count change, until the client goes (`signal`), the server shuts down, or the client falls
 * too far behind. Without a hub (no database LISTEN available) only the first count is sent.
 */
export async function* streamInbox(
  hub: InboxHub | undefined,
  db: Database,
  userId: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<InboxEvent, void, unknown> {
  const queue = new EventQueue<InboxEvent>();
  // Subscribed before the count is read: a change committed in between is pushed after it.
  const unsubscribe = hub?.subscribe(userId, (event) => queue.push(event));
  const end = () => queue.close();
  if (hub && !hub.onEnd(end)) end();
  try {
    yield { kind: 'unread', count: await countUnread(db, userId) };
    for (;;) {
      const event = await queue.take(signal);
      if (event === undefined) return;
      yield event;
    }
  } finally {
    unsubscribe?.();
    hub?.offEnd(end);
    queue.close();
  }
}
