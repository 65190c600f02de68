import type { Logger } from '@checkline/core';
import type { Database, DatabaseListen } from '@checkline/db';
import { inArray } from 'drizzle-orm';
import { inbox } from '../db/schema.ts';
import type { InboxChange } from './changes.ts';
import { INBOX_CHANNEL, parseInboxChange } from './changes.ts';
import type { InboxEvent } from './schemas.ts';
import { countUnreadByUser, toInAppNotification } from './service.ts';

type Push = (event: InboxEvent) => void;

/**
 * The open inbox streams of one plugin instance. It holds one LISTEN on the inbox channel (so a
 * change committed by any server process on the database reaches it), reads back only what
 * users connected here need, and fans each event out to every open stream of that user.
 */
export class InboxHub {
  readonly #streams = new Map<string, Set<Push>>();
  #unlisten: (() => Promise<void>) | undefined;
  readonly #onEnd = new Set<() => void>();
  #ending = false;
  #stopped = false;
  #delivering = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
  ) {}

  async start(listen: DatabaseListen) {
    this.#unlisten = await listen(INBOX_CHANNEL, (payload) => {
      const change = parseInboxChange(payload);
      // One change at a time, in the order heard, so a stream never sees an older count last.
      // Never awaited inside the driver's callback: the read-back takes its own connection.
      if (change) this.#delivering = this.#delivering.then(() => this.#deliver(change));
    });
  }

  get listening() {
    return this.#unlisten !== undefined;
  }

  /** Streams `userId`'s events to `push` until the returned function is called. */
  subscribe(userId: string, push: Push): () => void {
    let pushes = this.#streams.get(userId);
    if (!pushes) this.#streams.set(userId, (pushes = new Set()));
    pushes.add(push);
    return () => {
      pushes.delete(push);
      if (pushes.size === 0 && this.#streams.get(userId) === pushes) this.#streams.delete(userId);
    };
  }

  /** How many streams are open (all users). */
  get openStreams() {
    let count = 0;
    for (const pushes of this.#streams.values()) count += pushes.size;
    return count;
  }

  /**
   * `end` is called when streams must end (shutdown), so the HTTP server can drain; answers
   * false, and `end` is not kept, when they already must.
   */
  onEnd(end: () => void): boolean {
    if (this.#ending) return false;
    this.#onEnd.add(end);
    return true;
  }

  offEnd(end: () => void) {
    this.#onEnd.delete(end);
  }

  /** Ends every open stream, and any opened from now on after its first event. */
  endStreams() {
    this.#ending = true;
    for (const end of [...this.#onEnd]) end();
    this.#onEnd.clear();
  }

  async stop() {
    this.#stopped = true;
    this.endStreams();
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    await unlisten?.();
    await this.#delivering;
  }

  #fanOut(userId: string, event: InboxEvent) {
    for (const push of this.#streams.get(userId) ?? []) push(event);
  }

  async #deliver(change: InboxChange) {
    if (this.#stopped) return;
    try {
      if (change.kind === 'unread') {
        if (!this.#streams.has(change.userId)) return;
        await this.#pushCounts([change.userId]);
        return;
      }
      const ids = change.rows.filter((row) => this.#streams.has(row.userId)).map((row) => row.id);
      if (ids.length === 0) return;
      const rows = await this.db.select().from(inbox).where(inArray(inbox.id, ids));
      rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      for (const row of rows) {
        this.#fanOut(row.userId, { kind: 'notification', notification: toInAppNotification(row) });
      }
      await this.#pushCounts([...new Set(rows.map((row) => row.userId))]);
    } catch (error) {
      // A stream misses one event; the next count or a reload puts it right.
      this.logger.warn({ err: error }, 'inbox stream: could not read back a change');
    }
  }

  async #pushCounts(userIds: string[]) {
    const counts = await countUnreadByUser(this.db, userIds);
    for (const userId of userIds) {
      this.#fanOut(userId, { kind: 'unread', count: counts.get(userId) ?? 0 });
    }
  }
}
