import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { EventBus, Logger, Metrics } from '@checkline/core';
import { createPeriodicTask, singleFlight } from '@checkline/core';
import type { Database } from '@checkline/db';
import { createOutageLog } from '@checkline/db';
import type { HealthCheckTypeRegistry } from './check-type.ts';
import type { ClaimedRun } from './claims.ts';
import { claimDueRuns, deferRuns, giveBackLateRun, nextDueAt, releaseRun } from './claims.ts';
import type { FairKey } from './fair-queue.ts';
import type { LateWait } from './late-start.ts';
import { createFairQueue } from './fair-queue.ts';
import { targetHostsOf } from './run-hosts.ts';
import type { MaintenanceLookup } from './maintenance.ts';
import type { ResultWriterSettings } from './result-writer.ts';
import { createResultWriter } from './result-writer.ts';
import { purgeHistory } from './retention.ts';
import { runCheck } from './run-check.ts';
import { countDueBacklog } from './scheduler-status.ts';
import type { TargetPolicy } from '@checkline/net';

const DAY_MS = 24 * 60 * 60 * 1_000;

export interface SchedulerSettings {
  /** Longest wait, in ms, between looks for due runs when none are due. Default 1 000. */
  tickIntervalMs?: number;
  /**
   * Shortest wait, in ms, between looks once every due run is claimed: runs falling due within
   * it are claimed together. Default 50.
   */
  claimGapMs?: number;
  /**
   * Runs this process holds at once (CHECK_CONCURRENCY), from their claim until their result is
   * written or they are given back. Default 256.
   */
  concurrency?: number;
  /** Runs of one target host in flight at once (CHECK_MAX_PER_HOST); as many may wait. Default 8. */
  maxPerHost?: number;
  /**
   * Runs of one owner's checks (their creator; the system for checks without one) in flight at
   * once (CHECK_MAX_PER_OWNER); as many may wait. Default 64.
   */
  maxPerOwner?: number;
  /**
   * How long, in ms, a claimed run whose host or owner has enough runs in flight and waiting is
   * put off before any process may claim it again. Default 1 000.
   */
  deferMs?: number;
  /** Runs claimed in one transaction at most. Default 100. */
  claimBatch?: number;
  /** Added to a check's timeout for the lease on its claimed run. Default 5 000. */
  leaseMarginMs?: number;
  /** How long raw results are kept, in ms (CHECK_RESULT_RETENTION_DAYS). Default 7 days. */
  retentionMs?: number;
  /** How long hourly and daily rollups are kept, in ms. Default 365 days. */
  rollupRetentionMs?: number;
  /** Milliseconds between purges of results and rollups past retention. Default 1 hour. */
  purgeIntervalMs?: number;
  /** A full claim whose oldest run is this late (ms) means falling behind: logged once. Default 5 000. */
  behindAfterMs?: number;
  /** This process's name in results and getSchedulerStatus. Default host:pid:random. */
  processId?: string;
  /** Batching of result writes. */
  writes?: ResultWriterSettings;
}

export const schedulerDefaults = {
  tickIntervalMs: 1_000,
  claimGapMs: 50,
  concurrency: 256,
  maxPerHost: 8,
  maxPerOwner: 64,
  deferMs: 1_000,
  claimBatch: 100,
  leaseMarginMs: 5_000,
  retentionMs: 7 * DAY_MS,
  rollupRetentionMs: 365 * DAY_MS,
  purgeIntervalMs: 60 * 60 * 1_000,
  behindAfterMs: 5_000,
};

/** A claimed run waiting for (or holding) its turn; `done` settles its task. */
interface QueuedRun {
  run: ClaimedRun;
  /** Epoch ms after which it is given back instead of started (its lease would not cover it). */
  startBy: number;
  done: () => void;
}

const defaultProcessId = () =>
  `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 6)}`;

export interface SchedulerDeps {
  db: Database;
  types: HealthCheckTypeRegistry;
  targets: TargetPolicy;
  /** Status changes are written to its outbox with their results and dispatched after commit. */
  events: EventBus;
  inMaintenance: MaintenanceLookup;
  logger: Logger;
  now: () => Date;
  /** Where finished runs, their lag and late starts are counted (`GET /metrics`). */
  metrics?: Pick<Metrics, 'checkRuns' | 'checkLag' | 'checkLateStarts'>;
}

export interface Scheduler {
  /** This process's id, as its results carry it. */
  readonly processId: string;
  /** Looks for due runs now, then again as soon as more may be due, until `stop`. */
  start(): void;
  /** Stops claiming, cancels runs in flight and gives their claims back for others to retry. */
  stop(): Promise<void>;
  /**
   * Purges when due, then claims due runs for the free slots, and keeps claiming as slots free
   * while more are due; resolves with how many runs it started once nothing more is due now.
   */
  tick(): Promise<number>;
  /** Resolves once every run started so far is finished and its result written. */
  idle(): Promise<void>;
  /** Deletes results and rollups past retention; how many rows. */
  purge(): Promise<number>;
}

/**
 * The health-check worker of one server process. Due runs are claimed in short transactions
 * (several processes share the work through `FOR UPDATE SKIP LOCKED`), in batches, whenever
 * enough slots are free, and run outside them, at most `concurrency` at a time, so a slow target
 * holds one slot and nothing else. Results are written in batches (result-writer.ts); a run keeps
 * its slot until its result is written, so a burst never holds more claims than slots.
 */
export function createScheduler(deps: SchedulerDeps, settings: SchedulerSettings = {}): Scheduler {
  const options = { ...schedulerDefaults, ...settings };
  const processId = settings.processId ?? defaultProcessId();
  // Refill in batches rather than one claim per finished run, unless slots are few.
  const refillAt = Math.max(1, Math.min(options.claimBatch, Math.floor(options.concurrency / 8)));
  const tasks = new Set<Promise<void>>();
  const shutdown = new AbortController();
  // Every run in flight listens to it, to stop at shutdown, and once more while it waits for a
  // connection slot; the slot waiters' wake-up is one more.
  setMaxListeners(2 * options.concurrency + 1, shutdown.signal);
  const writer = createResultWriter(deps, options.writes);
  const queue = createFairQueue<QueuedRun>({ concurrency: options.concurrency, run: execute });
  // Claimed and not yet answered: waiting for its turn, running, or its result waiting to be
  // written. A result waiting counts: claiming past it, a burst would pile up unwritten results
  // until their leases lapse and the runs are taken over, so the targets are asked twice.
  const held = () => tasks.size;
  let slotWaiters: (() => void)[] = [];
  let lastPurgeAt: number | undefined;
  let behind = false;
  // While the database is away every look fails fast; the outage is logged once, not per look.
  const outage = createOutageLog(deps.logger, 'health check scheduler');

  const wakeSlotWaiters = () => {
    const waiters = slotWaiters;
    slotWaiters = [];
    for (const wake of waiters) wake();
  };
  const slotFreed = () => new Promise<void>((resolve) => slotWaiters.push(resolve));
  shutdown.signal.addEventListener('abort', wakeSlotWaiters);

  /**
   * The queue's part of a run: the check itself, holding its queue slot. Writing its result
   * (batched) happens after that slot is free; the run's task settles once written, and until
   * then the run counts against `concurrency` (no new claim takes its place).
   */
  async function execute(queued: QueuedRun) {
    const { run, startBy } = queued;
    const startedAt = deps.now();
    let finish: () => Promise<void>;
    try {
      if (shutdown.signal.aborted) {
        finish = () => releaseRun(deps.db, run, deps.now());
      } else if (startedAt.getTime() > startBy) {
        finish = giveBackLate(run, { waitedFor: 'turn' });
      } else {
        const outcome = await runCheck(deps.types, run, {
          targets: deps.targets,
          db: deps.db,
          cancel: shutdown.signal,
          // Waiting for a connection slot past it, the run is given back: late, not failed.
          startWithinMs: startBy - startedAt.getTime(),
        });
        if (outcome.status === 'late') {
          finish = giveBackLate(run, {
            waitedFor: 'connection slot',
            queueWaitMs: outcome.queueWaitMs,
          });
        } else {
          deps.metrics?.checkRuns.inc({ type: run.type, outcome: outcome.status });
          deps.metrics?.checkLag.observe((startedAt.getTime() - run.dueAt.getTime()) / 1_000);
          finish = () =>
            shutdown.signal.aborted
              ? releaseRun(deps.db, run, deps.now())
              : writer.write({
                  healthCheckId: run.healthCheckId,
                  outcome,
                  dueAt: run.dueAt,
                  checkedAt: deps.now(),
                  lagMs: startedAt.getTime() - run.dueAt.getTime(),
                  processId,
                });
        }
      }
    } catch (error) {
      finish = () => Promise.reject(error);
    }
    // A run that fails to be written keeps its claim; the lease lapses and a later look retries it.
    void finish()
      .catch((error: unknown) =>
        outage.failed(error, 'health check run failed', { healthCheckId: run.healthCheckId }),
      )
      .finally(queued.done);
  }

  /**
   * A run that waited until its lease would not cover it: for its host's or owner's turn in our
   * queue, or for a connection slot to its origin. It is given back (any process retries it) and
   * counted as a late start (the metric, and a row getSchedulerStatus counts, written with the
   * give-back), never as the target's failure nor as a finished run. Late turns are not logged
   * one by one (a backlog makes many); the counts show them. Answers the give-back.
   */
  function giveBackLate(run: ClaimedRun, wait: LateWait): () => Promise<void> {
    deps.metrics?.checkLateStarts.inc({ type: run.type });
    if (wait.waitedFor === 'connection slot') {
      deps.logger.warn(
        { processId, healthCheckId: run.healthCheckId, queueWaitMs: wait.queueWaitMs },
        'health check run could not start in time: every connection slot of its origin was busy (raise CHECK_MAX_PER_HOST or add server processes)',
      );
    }
    return () => giveBackLateRun(deps.db, run, { at: deps.now(), processId, wait });
  }

  /** The limits a run counts against: its owner's (its lane), then each of its target hosts'. */
  function fairKeys(run: ClaimedRun): FairKey[] {
    const owner = run.createdBy ?? `system:${run.systemId}`;
    return [
      { key: `owner:${owner}`, cap: options.maxPerOwner },
      ...targetHostsOf(deps.types, run).map((host) => ({
        key: `host:${host}`,
        cap: options.maxPerHost,
      })),
    ];
  }

  /** Queues `run` fairly; false when its host or owner has enough waiting already. */
  function launch(run: ClaimedRun, claimedAt: Date): boolean {
    let done = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    const queued: QueuedRun = { run, startBy: claimedAt.getTime() + options.leaseMarginMs, done };
    if (!queue.offer(queued, fairKeys(run))) return false;
    const task = finished.finally(() => {
      tasks.delete(task);
      wakeSlotWaiters();
    });
    tasks.add(task);
    return true;
  }

  const purge = (now = deps.now()) =>
    purgeHistory(deps.db, {
      resultsBefore: new Date(now.getTime() - options.retentionMs),
      rollupsBefore: new Date(now.getTime() - options.rollupRetentionMs),
    });

  async function purgeIfDue(now: Date) {
    if (lastPurgeAt !== undefined && now.getTime() - lastPurgeAt < options.purgeIntervalMs) return;
    lastPurgeAt = now.getTime();
    try {
      const purged = await purge(now);
      if (purged > 0) deps.logger.info({ purged }, 'purged old health check results and rollups');
    } catch (error) {
      outage.failed(error, 'purging health check results failed');
    }
  }

  /** Warns once when due runs pile up past `behindAfterMs`, and says once when caught up. */
  async function noteBacklog(now: Date, claimed: ClaimedRun[], full: boolean) {
    if (!full) {
      if (behind) deps.logger.info({ processId }, 'health check scheduler caught up');
      behind = false;
      return;
    }
    const oldest = Math.min(...claimed.map((run) => run.dueAt.getTime()));
    if (behind || now.getTime() - oldest < options.behindAfterMs) return;
    behind = true;
    const backlog = await countDueBacklog(deps.db, now);
    deps.logger.warn(
      {
        processId,
        dueBacklog: backlog.due,
        lagMs: now.getTime() - oldest,
        concurrency: options.concurrency,
      },
      'health check scheduler is falling behind: due runs wait for free slots (raise CHECK_CONCURRENCY or add server processes)',
    );
  }

  async function lookOnce(): Promise<number> {
    let started = 0;
    while (!shutdown.signal.aborted) {
      // Inside the loop: under a lasting backlog one look goes on for as long.
      await purgeIfDue(deps.now());
      const free = options.concurrency - held();
      if (free < refillAt) {
        await slotFreed();
        continue;
      }
      const now = deps.now();
      const asked = Math.min(free, options.claimBatch);
      const claimed = await deps.db.transaction((tx) =>
        claimDueRuns(tx, { now, limit: asked, leaseMarginMs: options.leaseMarginMs }),
      );
      const launched = claimed.filter((run) => launch(run, now));
      const deferred = claimed.filter((run) => !launched.includes(run));
      // Long enough that this look's later claims reach other owners' runs first.
      await deferRuns(deps.db, deferred, new Date(now.getTime() + options.deferMs));
      started += launched.length;
      const full = claimed.length === asked;
      // Runs put off for their host or owner are not this process falling behind.
      await noteBacklog(now, launched, launched.length === asked);
      if (!full) break;
    }
    return started;
  }

  const looks = singleFlight(lookOnce);

  /** Until the next due run, but no sooner than the claim gap and no later than the tick. */
  async function delayUntilNextLook(): Promise<number> {
    const next = await nextDueAt(deps.db);
    if (!next) return options.tickIntervalMs;
    const wait = next.getTime() - deps.now().getTime();
    return Math.min(options.tickIntervalMs, Math.max(options.claimGapMs, wait));
  }

  // Looks right away, then again when the next run falls due (the tick at most); a failed look
  // is retried a tick later.
  const looking = createPeriodicTask({
    name: 'health check scheduler',
    intervalMs: options.tickIntervalMs,
    runAtStart: true,
    logger: deps.logger,
    outageLog: outage,
    run: () => looks.run(),
    nextDelayMs: delayUntilNextLook,
  });

  const scheduler: Scheduler = {
    processId,
    tick() {
      return looks.run();
    },
    async idle() {
      while (tasks.size > 0) await Promise.all(tasks);
      await writer.flush();
    },
    purge: () => purge(),
    start() {
      if (!shutdown.signal.aborted) looking.start();
    },
    async stop() {
      shutdown.abort();
      await looking.stop();
      await looks.settled();
      await scheduler.idle();
    },
  };
  return scheduler;
}
