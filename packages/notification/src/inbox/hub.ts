import type { Logger } from '@checkline/core';
import { tooManyRequests } from '@checkline/core/contract';
import type { Database, DatabaseListen } from '@checkline/db';
import { inArray } from 'drizzle-orm';
import { inbox } from '../db/schema.ts';
import { INBOX_CHANNEL, parseInboxChange } from './changes.ts';
import type { InboxEvent } from './schemas.ts';
import { countUnreadByUser, toInAppNotification } from './service.ts';
import type { InboxStreamLimits } from './stream-limits.ts';
import { defaultInboxStreamLimits, STREAM_RETRY_AFTER_MS } from './stream-limits.ts';

type Push = (event: InboxEvent) => void;

interface OpenStream {
  push: Push;
  /** Ends the stream (its user opened one too many). */
  evict: () => void;
}

/** Reads the unread counts of several users in one query (a seam for tests that count calls). */
export type CountUnreadByUser = typeof countUnreadByUser;

/** New rows read back per query; more wait for the next round. */
const READ_BACK_PER_ROUND = 500;
/**
 * New rows waiting to be read back. Past it the oldest are dropped: their users still get
 * their new count, and see the rows themselves on their next read of the inbox.
 */
const MAX_WAITING_ROWS = 5_000;

/**
 * The open inbox streams of one plugin instance. It holds one LISTEN on the inbox channel (so a
 * change committed by any server process on the database reaches it), reads back only what
 * users connected here need, and fans each event out to every open stream of that user.
 *
 * The work a change costs is bounded: changes heard while a round of read-backs runs are merged
 * into the next round, where each user's count is read once (one query for all users), whatever
 * the number of changes and of that user's streams. The streams are bounded too, per user and
 * per process.
 */
export class InboxHub {
  readonly #streams = new Map<string, Set<OpenStream>>();
  #open = 0;
  #unlisten: (() => Promise<void>) | undefined;
  readonly #onEnd = new Set<() => void>();
  #ending = false;
  #stopped = false;
  readonly #waitingRows: { userId: string; id: string }[] = [];
  readonly #waitingCounts = new Set<string>();
  #draining = false;
  #drained: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly limits: InboxStreamLimits = defaultInboxStreamLimits,
    private readonly countUnread: CountUnreadByUser = countUnreadByUser,
  ) {}

  async start(listen: DatabaseListen) {
    this.#unlisten = await listen(INBOX_CHANNEL, (payload) => {
      const change = parseInboxChange(payload);
      if (!change) return;
      if (change.kind === 'unread') {
        if (this.#streams.has(change.userId)) this.#waitingCounts.add(change.userId);
      } else {
        for (const row of change.rows) {
          if (this.#streams.has(row.userId)) this.#waitingRows.push(row);
        }
        this.#dropOldestRowsPastLimit();
      }
      // Never awaited inside the driver's callback: the read-back takes its own connection.
      this.#drainSoon();
    });
  }

  /**
   * Streams `userId`'s events to `push` until the returned function is called. A user at the
   * per-user limit loses their oldest stream (`evict` is called on it), so someone with many
   * tabs is never locked out; past the per-process limit the new stream is TOO_MANY_REQUESTS.
   */
  subscribe(userId: string, push: Push, evict: () => void): () => void {
    const streams = this.#streams.get(userId) ?? new Set<OpenStream>();
    const full = streams.size >= this.limits.perUser;
    if (!full && this.#open >= this.limits.perProcess) {
      throw tooManyRequests(STREAM_RETRY_AFTER_MS);
    }
    if (full) {
      // A Set keeps insertion order: the first is the oldest.
      const oldest = streams.values().next().value!;
      this.#forget(userId, streams, oldest);
      oldest.evict();
    }
    const stream: OpenStream = { push, evict };
    streams.add(stream);
    this.#streams.set(userId, streams);
    this.#open += 1;
    return () => this.#forget(userId, streams, stream);
  }

  /** How many streams are open (all users). */
  get openStreams() {
    return this.#open;
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
    await this.#drained;
  }

  #forget(userId: string, streams: Set<OpenStream>, stream: OpenStream) {
    if (!streams.delete(stream)) return;
    this.#open -= 1;
    if (streams.size === 0 && this.#streams.get(userId) === streams) this.#streams.delete(userId);
  }

  #dropOldestRowsPastLimit() {
    const excess = this.#waitingRows.length - MAX_WAITING_ROWS;
    if (excess <= 0) return;
    for (const row of this.#waitingRows.splice(0, excess)) this.#waitingCounts.add(row.userId);
  }

  #fanOut(userId: string, event: InboxEvent) {
    for (const stream of this.#streams.get(userId) ?? []) stream.push(event);
  }

  /**
   * One round at a time, in the order heard, so a stream never sees an older count last; what
   * arrives meanwhile waits for the next round.
   */
  #drainSoon() {
    if (this.#draining) return;
    this.#draining = true;
    this.#drained = this.#drain();
  }

  async #drain() {
    // `#draining` is cleared in the same synchronous step that finds nothing left, so a change
    // heard afterwards always starts a new drain.
    for (;;) {
      if (this.#stopped || (this.#waitingRows.length === 0 && this.#waitingCounts.size === 0)) {
        this.#draining = false;
        return;
      }
      await this.#round();
    }
  }

  async #round() {
    const rows = this.#waitingRows.splice(0, READ_BACK_PER_ROUND);
    const counted = new Set(this.#waitingCounts);
    this.#waitingCounts.clear();
    try {
      if (rows.length > 0) {
        const read = await this.db
          .select()
          .from(inbox)
          .where(inArray(inbox.id, [...new Set(rows.map((row) => row.id))]));
        read.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
        for (const row of read) {
          this.#fanOut(row.userId, {
            kind: 'notification',
            notification: toInAppNotification(row),
          });
          counted.add(row.userId);
        }
      }
      const userIds = [...counted].filter((userId) => this.#streams.has(userId));
      if (userIds.length === 0) return;
      const counts = await this.countUnread(this.db, userIds);
      for (const userId of userIds) {
        this.#fanOut(userId, { kind: 'unread', count: counts.get(userId) ?? 0 });
      }
    } catch (error) {
      // A stream misses one event; the next count or a reload puts it right.
      this.logger.warn({ err: error }, 'inbox stream: could not read back a change');
    }
  }
}
