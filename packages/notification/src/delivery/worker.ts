import { createPeriodicTask, singleFlight } from '@checkline/core';
import { createOutageLog } from '@checkline/db';
import type { NotificationState } from '../state.ts';
import { attemptDelivery, loadSendTimeFacts } from './attempt.ts';
import type { ClaimedDelivery } from './claims.ts';
import { claimDueDeliveries, countPending, releaseClaims } from './claims.ts';
import { noteChannelAttempt } from './channel-health.ts';
import { createOutcomeRecorder } from './outcome-recorder.ts';
import type { SendTimeFacts } from './attempt.ts';

export interface DeliveryWorker {
  /** Ticks every `tickIntervalMs`, the first time at once, and whenever woken. */
  start(): void;
  /** Claims nothing more from now on (shutdown begins); sends in flight go on. */
  stopClaiming(): void;
  /** Stops claiming; waits for sends in flight (each bounded by `sendTimeoutMs`) to be recorded. */
  stop(): Promise<void>;
  /** Look for due deliveries now (a call just queued some). No-op unless started. */
  wake(): void;
  /** Claims due deliveries for the free slots and starts sending them; how many it claimed. */
  tick(): Promise<number>;
  /** Resolves once every send started so far is finished and recorded. */
  idle(): Promise<void>;
  /**
   * Ticks until no delivery is pending any more (retries included), for tests and tools; throws
   * after `timeoutMs` (default 15 s).
   */
  drain(timeoutMs?: number): Promise<void>;
}

/**
 * The delivery worker of one server process. Due deliveries are claimed in a short transaction
 * with `FOR UPDATE SKIP LOCKED` and a lease (so several processes share the queue and a dead
 * one's claims are taken over once their lease lapses), then sent outside any transaction, at
 * most `concurrency` at once. The outcome is recorded only while the claim still holds. A
 * system's messages to one recipient's channel go one at a time, in order (see the claim).
 */
export function createDeliveryWorker(
  state: NotificationState,
  clock: { now: () => Date; random?: () => number } = { now: () => new Date() },
): DeliveryWorker {
  const settings = state.deliverySettings;
  const { db, logger } = state;
  const running = new Set<Promise<void>>();
  let stopped = false;
  let started = false;
  /** The last tick took all it could: more are probably due as soon as slots free up. */
  let backlog = false;
  // While the database is away every tick fails fast; the outage is logged once, not per tick.
  const outage = createOutageLog(logger, 'notification delivery worker');
  // Outcomes held while the database is away are recorded once it is back (never dropped).
  const recorder = createOutcomeRecorder(db, clock.now);

  async function deliver(claim: ClaimedDelivery, facts: SendTimeFacts) {
    const outcome = await attemptDelivery(state, claim, facts, { ...settings, ...clock });
    const recorded = await recorder.record({ claim, outcome });
    state.metrics?.deliveryAttempts.inc({
      strategy: claim.strategyId,
      outcome: recorded ? outcome.status : 'not-recorded',
    });
    if (recorded && outcome.status === 'pending') wakeAt(outcome.retryAt);
    // The next message about its systems to the same recipient and channel may go now.
    else if (recorded && claim.systemIds.length > 0) worker.wake();
    if (recorded) {
      // Counting is best effort: a count lost to an outage only delays the report.
      await noteChannelAttempt(state, claim.strategyId, outcome).catch((error: unknown) =>
        logger.warn({ strategyId: claim.strategyId, error }, 'channel health not recorded'),
      );
    }
    const fields = { deliveryId: claim.id, strategyId: claim.strategyId, status: outcome.status };
    if (!recorded) {
      logger.warn(fields, 'delivery outcome not recorded: its claim lapsed and was taken over');
    } else if (outcome.status === 'failed') {
      logger.warn(
        { ...fields, attempts: claim.attempts + 1, error: outcome.error },
        'delivery failed',
      );
    } else {
      logger.debug(fields, 'delivery attempt recorded');
    }
  }

  /** A retry due before the next tick is looked for when due, not a whole tick later. */
  function wakeAt(at: Date) {
    const delay = at.getTime() - clock.now().getTime();
    if (delay >= settings.tickIntervalMs) return;
    setTimeout(() => worker.wake(), Math.max(0, delay)).unref();
  }

  function launch(claim: ClaimedDelivery, facts: SendTimeFacts) {
    // An outcome that could not be recorded within a lease keeps its claim; the lease lapses
    // and a worker retries.
    const task = deliver(claim, facts)
      .catch((error: unknown) =>
        outage.failed(error, 'recording a delivery failed', { deliveryId: claim.id }),
      )
      .finally(() => {
        running.delete(task);
        // With more due, claim again once half the slots are free: claims come in batches,
        // not one per finished send.
        if (backlog && running.size <= settings.concurrency / 2) worker.wake();
      });
    running.add(task);
  }

  async function tickOnce(): Promise<number> {
    const free = settings.concurrency - running.size;
    if (free <= 0 || stopped) {
      backlog = free <= 0;
      return 0;
    }
    const limit = Math.min(free, settings.batchSize);
    const claims = await db.transaction((tx) =>
      claimDueDeliveries(tx, { now: clock.now(), limit, leaseMs: settings.leaseMs }),
    );
    backlog = claims.length === limit;
    if (claims.length === 0) return 0;
    let facts: SendTimeFacts;
    try {
      facts = await loadSendTimeFacts(state, claims);
    } catch (error) {
      await releaseClaims(db, claims).catch(() => {});
      throw error;
    }
    for (const claim of claims) launch(claim, facts);
    if (claims.length > 0) logger.debug({ claimed: claims.length }, 'claimed deliveries');
    return claims.length;
  }

  const ticks = singleFlight(tickOnce);

  // Ticks at once, then every tickIntervalMs; right away again while a backlog fits free slots.
  const ticking = createPeriodicTask({
    name: 'notification delivery worker',
    intervalMs: settings.tickIntervalMs,
    runAtStart: true,
    logger,
    outageLog: outage,
    run: () => ticks.run(),
    nextDelayMs: () =>
      backlog && running.size < settings.concurrency ? 0 : settings.tickIntervalMs,
  });

  const worker: DeliveryWorker = {
    tick() {
      return ticks.run();
    },
    async idle() {
      while (running.size > 0) await Promise.all(running);
    },
    async drain(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await worker.tick();
        await worker.idle();
        if ((await countPending(db)) === 0) return;
        if (Date.now() > deadline) {
          throw new Error(`notification deliveries still pending after ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    wake() {
      if (!started || stopped) return;
      // A tick in flight (scheduled or called) may have looked before the new work arrived:
      // another round follows it.
      if (ticks.running) void ticks.settled().then(() => ticking.wake());
      else ticking.wake();
    },
    start() {
      if (started || stopped) return;
      started = true;
      const { concurrency, batchSize, leaseMs, sendTimeoutMs, maxAttempts } = settings;
      logger.info(
        { concurrency, batchSize, leaseMs, sendTimeoutMs, maxAttempts },
        'notification delivery worker started',
      );
      ticking.start();
    },
    stopClaiming() {
      stopped = true;
      // Only the timer needs stopping here; `stop` waits for the round in flight.
      void ticking.stop();
    },
    async stop() {
      worker.stopClaiming();
      await ticking.stop();
      await ticks.settled();
      await worker.idle();
    },
  };
  return worker;
}
