import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { EventBus, Logger } from '@checkline/core';
import { singleFlight } from '@checkline/core';
import type { Database } from '@checkline/db';
import { createOutageLog } from '@checkline/db';
import type { HealthCheckTypeRegistry } from './check-type.ts';
import type { ClaimedRun } from './claims.ts';
import { claimDueRuns, nextDueAt, releaseRun } from './claims.ts';
import type { MaintenanceLookup } from './maintenance.ts';
import type { ResultWriterSettings } from './result-writer.ts';
import { createResultWriter } from './result-writer.ts';
import { purgeHistory } from './retention.ts';
import { runCheck } from './run-check.ts';
import { countDueBacklog } from './scheduler-status.ts';
import type { TargetPolicy } from './targets/target-policy.ts';

const DAY_MS = 24 * 60 * 60 * 1_000;

export interface SchedulerSettings {
  /** Longest wait, in ms, between looks for due runs when none are due. Default 1 000. */
  tickIntervalMs?: number;
  /**
   * Shortest wait, in ms, between looks once every due run is claimed: runs falling due within
   * it are claimed together. Default 50.
   */
  claimGapMs?: number;
  /** Runs this process keeps in flight at once (CHECK_CONCURRENCY). Default 256. */
  concurrency?: number;
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

const defaults = {
  tickIntervalMs: 1_000,
  claimGapMs: 50,
  concurrency: 256,
  claimBatch: 100,
  leaseMarginMs: 5_000,
  retentionMs: 7 * DAY_MS,
  rollupRetentionMs: 365 * DAY_MS,
  purgeIntervalMs: 60 * 60 * 1_000,
  behindAfterMs: 5_000,
};

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
 * holds one slot and nothing else. Results are written in batches (result-writer.ts).
 */
export function createScheduler(deps: SchedulerDeps, settings: SchedulerSettings = {}): Scheduler {
  const options = { ...defaults, ...settings };
  const processId = settings.processId ?? defaultProcessId();
  // Refill in batches rather than one claim per finished run, unless slots are few.
  const refillAt = Math.max(1, Math.min(options.claimBatch, Math.floor(options.concurrency / 8)));
  const tasks = new Set<Promise<void>>();
  const shutdown = new AbortController();
  // Every run in flight listens to it, to stop at shutdown.
  setMaxListeners(options.concurrency + 10, shutdown.signal);
  const writer = createResultWriter(deps, options.writes);
  let inFlight = 0;
  let slotWaiters: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
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

  async function execute(run: ClaimedRun) {
    const startedAt = deps.now();
    let outcome;
    try {
      outcome = await runCheck(deps.types, run, {
        targets: deps.targets,
        cancel: shutdown.signal,
      });
    } finally {
      inFlight -= 1;
      wakeSlotWaiters();
    }
    if (shutdown.signal.aborted) return releaseRun(deps.db, run, deps.now());
    await writer.write({
      healthCheckId: run.healthCheckId,
      outcome,
      dueAt: run.dueAt,
      checkedAt: deps.now(),
      lagMs: startedAt.getTime() - run.dueAt.getTime(),
      processId,
    });
  }

  function launch(run: ClaimedRun) {
    inFlight += 1;
    // A run that fails to be written keeps its claim; the lease lapses and a later look retries it.
    const task = execute(run)
      .catch((error: unknown) =>
        outage.failed(error, 'health check run failed', { healthCheckId: run.healthCheckId }),
      )
      .finally(() => tasks.delete(task));
    tasks.add(task);
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
      const free = options.concurrency - inFlight;
      if (free < refillAt) {
        await slotFreed();
        continue;
      }
      const now = deps.now();
      const asked = Math.min(free, options.claimBatch);
      const claimed = await deps.db.transaction((tx) =>
        claimDueRuns(tx, { now, limit: asked, leaseMarginMs: options.leaseMarginMs }),
      );
      for (const run of claimed) launch(run);
      started += claimed.length;
      const full = claimed.length === asked;
      await noteBacklog(now, claimed, full);
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
      if (timer || shutdown.signal.aborted) return;
      const next = (delay: number) => {
        timer = setTimeout(async function lookForDueRuns() {
          let delay: number = options.tickIntervalMs;
          try {
            await scheduler.tick();
            delay = await delayUntilNextLook();
            outage.succeeded();
          } catch (error) {
            outage.failed(error, 'health check scheduler look failed');
          }
          if (!shutdown.signal.aborted) next(delay);
        }, delay);
        // Background work must not keep the process alive on its own.
        timer.unref();
      };
      next(0);
    },
    async stop() {
      shutdown.abort();
      clearTimeout(timer);
      await looks.settled();
      await scheduler.idle();
    },
  };
  return scheduler;
}
