import { AsyncLocalStorage } from 'node:async_hooks';
import type { PeriodicTask } from './periodic-task.ts';
import { createPeriodicTask } from './periodic-task.ts';
import { singleFlight } from './single-flight.ts';
import type { Database } from '@checkline/db';
import { createOutageLog } from '@checkline/db';
import type { ClaimedEvent } from './event-outbox.ts';
import {
  claimDueEvents,
  claimEventsById,
  enqueueEvent,
  markDispatched,
  markFailed,
  purgeDispatchedEvents,
} from './event-outbox.ts';
import type { EventDelivery, EventType } from './events.ts';
import type { Logger } from './logger.ts';
import { lazyChild } from './logger.ts';

/**
 * What a subscriber gets when it runs, besides the payload: the root database (subscribers run
 * outside any transaction; open your own), a logger naming the event, and the bus to dispatch
 * events it writes with `enqueueEvent`.
 */
export interface SubscriberContext extends EventDelivery {
  db: Database;
  logger: Logger;
  events: EventBus;
}

/**
 * Runs for each event of its type, at least once: a throw makes the event (all its subscribers)
 * retried later, so a subscriber must tolerate seeing the same `eventId` again.
 */
export type EventHandler<T> = (payload: T, context: SubscriberContext) => void | Promise<void>;

export interface EventBusSettings {
  /** Milliseconds between looks for events left behind. Default 2 000. */
  pollIntervalMs?: number;
  /** How long a claim holds an event while its subscribers run. Default 2 minutes. */
  leaseMs?: number;
  /** How long a never-tried event is left to the process that wrote it. Default 30 seconds. */
  orphanGraceMs?: number;
  /** Attempts before an event is given up (kept with its error). Default 8. */
  maxAttempts?: number;
  /** First retry delay; it doubles per attempt, with jitter. Default 2 000. */
  retryBaseMs?: number;
  /** Longest retry delay. Default 15 minutes. */
  retryMaxMs?: number;
  /** How long dispatched events are kept. Default 7 days. */
  retentionMs?: number;
  /** Milliseconds between purges. Default 1 hour. */
  purgeIntervalMs?: number;
  /** Events claimed per look. Default 50. */
  batchSize?: number;
}

const defaults: Required<EventBusSettings> = {
  pollIntervalMs: 2_000,
  leaseMs: 2 * 60_000,
  orphanGraceMs: 30_000,
  maxAttempts: 8,
  retryBaseMs: 2_000,
  retryMaxMs: 15 * 60_000,
  retentionMs: 7 * 24 * 60 * 60_000,
  purgeIntervalMs: 60 * 60_000,
  batchSize: 50,
};

export interface EventBusDeps {
  /** The root database (never a transaction): claims and outcomes are written here. */
  db: Database;
  logger: Logger;
  now?: () => Date;
  settings?: EventBusSettings;
}

/** Delay before retry number `attempts + 1`: doubling from the base, capped, half of it jitter. */
export function retryDelayMs(
  attempts: number,
  settings: Pick<Required<EventBusSettings>, 'retryBaseMs' | 'retryMaxMs'>,
  random = Math.random,
): number {
  const ceiling = Math.min(
    settings.retryBaseMs * 2 ** Math.max(0, attempts - 1),
    settings.retryMaxMs,
  );
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Events a running event's subscribers dispatch, held until all of them have finished. */
interface Consequences {
  ids: string[];
  open: boolean;
}

const describeError = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 1_000);

/**
 * Durable domain events. An event is a row of `checkline.event_outbox` written in the transaction
 * of its change; the process that wrote it dispatches it right after commit, and a background
 * dispatcher in every process claims (with a lease, `FOR UPDATE SKIP LOCKED`) the ones left
 * behind. Every in-process subscriber of the type runs; if any throws, the event is retried
 * later, all subscribers again: at least once, the same `eventId` each time. A process handles
 * what it dispatches one event at a time, in the order dispatched. Events a subscriber
 * dispatches (its consequences) are dispatched once every subscriber of the event that caused
 * them has finished, so what those wrote (its notifications) comes before what theirs write.
 */
export class EventBus {
  readonly #handlers = new Map<string, EventHandler<unknown>[]>();
  readonly #pending = new Set<Promise<unknown>>();
  /** The end of this process's dispatch line: each dispatch runs once the one before it is done. */
  #line: Promise<void> = Promise.resolve();
  readonly #consequences = new AsyncLocalStorage<Consequences>();
  readonly #db: Database;
  readonly #logger: Logger;
  readonly #now: () => Date;
  readonly #settings: Required<EventBusSettings>;
  readonly #outage: ReturnType<typeof createOutageLog>;
  readonly #ticks = singleFlight(() => this.#tickOnce());
  readonly #poller: PeriodicTask;
  #lastPurgeAt: number | undefined;
  #stopped = false;

  constructor(deps: EventBusDeps) {
    this.#db = deps.db;
    this.#logger = deps.logger;
    this.#now = deps.now ?? (() => new Date());
    this.#settings = { ...defaults, ...deps.settings };
    this.#outage = createOutageLog(deps.logger, 'event dispatcher');
    this.#poller = createPeriodicTask({
      name: 'event dispatcher',
      intervalMs: this.#settings.pollIntervalMs,
      runAtStart: true,
      logger: deps.logger,
      outageLog: this.#outage,
      run: () => this.tick(),
    });
  }

  subscribe<T>(type: EventType<T>, handler: EventHandler<T>): () => void {
    const list = this.#handlers.get(type.name) ?? [];
    list.push(handler as EventHandler<unknown>);
    this.#handlers.set(type.name, list);
    return () => {
      const index = list.indexOf(handler as EventHandler<unknown>);
      if (index >= 0) list.splice(index, 1);
    };
  }

  /**
   * Writes an event outside any transaction (on the root database) and dispatches it. Inside a
   * transaction use `enqueueEvent(tx, ...)` and `dispatch` after commit instead.
   */
  publish<T>(type: EventType<T>, payload: T): void {
    const written = enqueueEvent(this.#db, type, payload).then(
      (id) => [id],
      (error: unknown) => {
        this.#logger.error({ err: error, event: type.name }, 'event not written');
        return [];
      },
    );
    this.#dispatchWhenWritten(written);
  }

  /**
   * Dispatches, in this process, the committed events `ids` (from `enqueueEvent`): after the
   * events dispatched here before them, so events are handled in the order they were dispatched.
   */
  dispatch(ids: readonly string[]): void {
    if (ids.length > 0) this.#dispatchWhenWritten(Promise.resolve(ids));
  }

  /**
   * Dispatches `written` once written, after everything dispatched here before it. Events a
   * subscriber writes while its event runs wait for the end of that event (see `#deliver`).
   */
  #dispatchWhenWritten(written: Promise<readonly string[]>) {
    if (this.#stopped) return;
    const consequences = this.#consequences.getStore();
    if (!consequences?.open) {
      this.#joinLine(written);
      return;
    }
    this.#track(
      written.then((ids) => {
        if (consequences.open) consequences.ids.push(...ids);
        else this.#joinLine(Promise.resolve(ids));
      }),
    );
  }

  #joinLine(written: Promise<readonly string[]>) {
    const turn = this.#line.then(async () => this.#dispatchNow(await written));
    this.#line = turn;
    this.#track(turn);
  }

  /** Resolves once everything published or dispatched so far, and what that caused, has run. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Purges when due, then claims events left behind and dispatches them; how many. */
  tick(): Promise<number> {
    return this.#ticks.run();
  }

  /** Looks for events left behind every `pollIntervalMs`, the first time at once. */
  start(): void {
    if (!this.#stopped) this.#poller.start();
  }

  /** Stops looking and dispatching; waits for subscribers running. Undispatched rows stay. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#poller.stop();
    await this.#ticks.settled();
    await this.settled();
  }

  /** Deletes dispatched events past retention; how many. */
  purge(): Promise<number> {
    return purgeDispatchedEvents(
      this.#db,
      new Date(this.#now().getTime() - this.#settings.retentionMs),
    );
  }

  #track(task: Promise<unknown>) {
    const tracked = task.finally(() => this.#pending.delete(tracked));
    this.#pending.add(tracked);
  }

  async #dispatchNow(ids: readonly string[]) {
    if (ids.length === 0 || this.#stopped) return;
    try {
      const claimed = await claimEventsById(this.#db, ids, {
        now: this.#now(),
        leaseMs: this.#settings.leaseMs,
      });
      for (const event of claimed) await this.#deliver(event);
    } catch (error) {
      // The rows are committed; the background dispatcher takes them once the grace has passed.
      this.#outage.failed(error, 'event dispatch failed', { eventIds: ids });
    }
  }

  async #tickOnce(): Promise<number> {
    const now = this.#now();
    await this.#purgeIfDue(now);
    if (this.#stopped) return 0;
    const claimed = await claimDueEvents(this.#db, {
      now,
      limit: this.#settings.batchSize,
      leaseMs: this.#settings.leaseMs,
      orphanGraceMs: this.#settings.orphanGraceMs,
    });
    const run = (async () => {
      for (const event of claimed) await this.#deliver(event);
    })();
    this.#track(run);
    await run;
    return claimed.length;
  }

  async #purgeIfDue(now: Date) {
    const last = this.#lastPurgeAt;
    if (last !== undefined && now.getTime() - last < this.#settings.purgeIntervalMs) return;
    this.#lastPurgeAt = now.getTime();
    const purged = await this.purge();
    if (purged > 0) this.#logger.info({ purged }, 'purged dispatched events');
  }

  #subscriberContext(event: ClaimedEvent): SubscriberContext {
    return {
      eventId: event.id,
      db: this.#db,
      logger: lazyChild(this.#logger, { event: event.type, eventId: event.id }),
      events: this,
    };
  }

  /** Runs every subscriber of a claimed event and records the outcome on its row. */
  async #deliver(event: ClaimedEvent) {
    const handlers = [...(this.#handlers.get(event.type) ?? [])];
    const consequences: Consequences = { ids: [], open: true };
    const outcomes = await this.#consequences.run(consequences, () =>
      Promise.allSettled(
        handlers.map(async (handler) => handler(event.payload, this.#subscriberContext(event))),
      ),
    );
    // Committed whatever this event's outcome; later dispatches by a subscriber go at once.
    consequences.open = false;
    this.dispatch(consequences.ids);
    const failures = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
    );
    try {
      if (failures.length === 0) {
        await markDispatched(this.#db, event, this.#now());
        return;
      }
      await this.#recordFailure(event, failures);
    } catch (error) {
      // The claim's lease lapses and another look retries the event.
      this.#outage.failed(error, 'recording an event outcome failed', { eventId: event.id });
    }
  }

  async #recordFailure(event: ClaimedEvent, failures: unknown[]) {
    const error = failures.map(describeError).join('; ');
    const log = {
      err: failures[0],
      event: event.type,
      eventId: event.id,
      attempts: event.attempts,
    };
    if (event.attempts >= this.#settings.maxAttempts) {
      await markFailed(this.#db, event, { error, nextAttemptAt: null });
      this.#logger.error(log, 'event subscriber failed; event given up');
      return;
    }
    const delay = retryDelayMs(event.attempts, this.#settings);
    await markFailed(this.#db, event, {
      error,
      nextAttemptAt: new Date(this.#now().getTime() + delay),
    });
    this.#logger.warn(
      { ...log, retryInMs: delay },
      'event subscriber failed; event will be retried',
    );
  }
}
