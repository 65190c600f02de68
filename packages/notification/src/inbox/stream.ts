import type { Database } from '@checkline/db';
import { EventQueue } from './event-queue.ts';
import type { InboxHub } from './hub.ts';
import type { InboxEvent } from './schemas.ts';
import { countUnread } from './service.ts';

/** A newer count makes a count still waiting in the queue useless. */
const supersedes = (next: InboxEvent, queued: InboxEvent) =>
  next.kind === 'unread' && queued.kind === 'unread';

/**
 * `userId`'s inbox events as they happen: the unread count first, then each new notification
 * and each count change, until the client goes (`signal`), the server shuts down, the client
 * falls too far behind, or the user opens more streams than one may hold (the oldest ends).
 * The stream is registered before this returns, so a refusal (too many streams in this process:
 * TOO_MANY_REQUESTS) is thrown here, before any event. Without a hub (no database LISTEN
 * available) only the first count is sent.
 */
export function streamInbox(
  hub: InboxHub | undefined,
  db: Database,
  userId: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<InboxEvent, void, unknown> {
  const queue = new EventQueue<InboxEvent>(undefined, supersedes);
  const end = () => queue.close();
  // Subscribed before the count is read: a change committed in between is pushed after it.
  const evict = () => {
    hub?.offEnd(end);
    queue.close();
  };
  const unsubscribe = hub?.subscribe(userId, (event) => queue.push(event), evict);
  const release = () => {
    unsubscribe?.();
    hub?.offEnd(end);
    queue.close();
  };
  // Released on abort too: a client gone before the first read never runs the finally below.
  signal?.addEventListener('abort', release, { once: true });
  if (hub && !hub.onEnd(end)) end();
  return (async function* () {
    try {
      yield { kind: 'unread', count: await countUnread(db, userId) };
      for (;;) {
        const event = await queue.take(signal);
        if (event === undefined) return;
        yield event;
      }
    } finally {
      signal?.removeEventListener('abort', release);
      release();
    }
  })();
}
