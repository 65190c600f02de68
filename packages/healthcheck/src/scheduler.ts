import type { EventBus, Logger } from '@checkline/core';
import { enqueueEvent, singleFlight } from '@checkline/core';
import type { Database } from '@checkline/db';
import { createOutageLog } from '@checkline/db';
import type { HealthCheckTypeRegistry } from './check-type.ts';
import type { ClaimedRun } from './claims.ts';
import { claimDueRuns, releaseRun } from './claims.ts';
import { healthStatusChanged } from './events.ts';
import type { MaintenanceLookup } from './maintenance.ts';
import { recordResult } from './record-result.ts';
import { runCheck } from './run-check.ts';
import { purgeResults } from './service.ts';
import type { TargetPolicy } from './targets/target-policy.ts';

export interface SchedulerSettings {
  /** Milliseconds between looks for due checks. Default 1 000. */
  tickIntervalMs?: number;
  /** Runs this process keeps in flight at once. Default 10. */
  concurrency?: number;
  /** Added to a check's timeout for the lease on its claimed run. Default 5 000. */
  leaseMarginMs?: number;
  /** How long results are kept, in milliseconds. Default 30 days. */
  retentionMs?: number;
  /** Milliseconds between purges of results past retention. Default 1 hour. */
  purgeIntervalMs?: number;
}

const defaults: Required<SchedulerSettings> = {
  tickIntervalMs: 1_000,
  concurrency: 10,
  leaseMarginMs: 5_000,
  retentionMs: 30 * 24 * 60 * 60 * 1_000,
  purgeIntervalMs: 60 * 60 * 1_000,
};

export interface SchedulerDeps {
  db: Database;
  types: HealthCheckTypeRegistry;
  targets: TargetPolicy;
  /** Status changes are written to its outbox with their result and dispatched after commit. */
  events: EventBus;
  inMaintenance: MaintenanceLookup;
  logger: Logger;
  now: () => Date;
}

export interface Scheduler {
  /** Ticks every `tickIntervalMs`, the first time at once. */
  start(): void;
  /** Stops ticking, cancels runs in flight and gives their claims back for others to retry. */
  stop(): Promise<void>;
  /** Purges when due, then claims due runs for the free slots and starts them; how many started. */
  tick(): Promise<number>;
  /** Resolves once every run started so far is finished and recorded. */
  idle(): Promise<void>;
  /** Deletes results past retention; how many. */
  purge(): Promise<number>;
}

/**
 * The health-check worker of one server process. Due runs are claimed in a short transaction
 * (several processes share the work through `FOR UPDATE SKIP LOCKED`) and run outside it, at
 * most `concurrency` at a time, so a slow target holds one slot and nothing else.
 */
export function createScheduler(deps: SchedulerDeps, settings: SchedulerSettings = {}): Scheduler {
  const options = { ...defaults, ...settings };
  const running = new Set<Promise<void>>();
  const shutdown = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let lastPurgeAt: number | undefined;
  // While the database is away every tick fails fast; the outage is logged once, not per tick.
  const outage = createOutageLog(deps.logger, 'health check scheduler');

  async function execute(run: ClaimedRun) {
    const outcome = await runCheck(deps.types, run, {
      targets: deps.targets,
      cancel: shutdown.signal,
    });
    if (shutdown.signal.aborted) return releaseRun(deps.db, run, deps.now());
    const eventIds = await deps.db.transaction(async (tx) => {
      const { change } = await recordResult(
        tx,
        { healthCheckId: run.healthCheckId, outcome, dueAt: run.dueAt, checkedAt: deps.now() },
        deps.inMaintenance,
      );
      return change ? [await enqueueEvent(tx, healthStatusChanged, change)] : [];
    });
    deps.events.dispatch(eventIds);
  }

  function launch(run: ClaimedRun) {
    // A run that fails to record keeps its claim; the lease lapses and a later tick retries it.
    const task = execute(run)
      .catch((error: unknown) =>
        outage.failed(error, 'health check run failed', { healthCheckId: run.healthCheckId }),
      )
      .finally(() => running.delete(task));
    running.add(task);
  }

  const purge = (now = deps.now()) =>
    purgeResults(deps.db, new Date(now.getTime() - options.retentionMs));

  async function purgeIfDue(now: Date) {
    if (lastPurgeAt !== undefined && now.getTime() - lastPurgeAt < options.purgeIntervalMs) return;
    lastPurgeAt = now.getTime();
    try {
      const purged = await purge(now);
      if (purged > 0) deps.logger.info({ purged }, 'purged old health check results');
    } catch (error) {
      outage.failed(error, 'purging health check results failed');
    }
  }

  async function tickOnce(): Promise<number> {
    const now = deps.now();
    await purgeIfDue(now);
    const free = options.concurrency - running.size;
    if (free <= 0 || shutdown.signal.aborted) return 0;
    const claimed = await deps.db.transaction((tx) =>
      claimDueRuns(tx, { now, limit: free, leaseMarginMs: options.leaseMarginMs }),
    );
    for (const run of claimed) launch(run);
    return claimed.length;
  }

  const ticks = singleFlight(tickOnce);

  const scheduler: Scheduler = {
    tick() {
      return ticks.run();
    },
    async idle() {
      while (running.size > 0) await Promise.all(running);
    },
    purge: () => purge(),
    start() {
      if (timer || shutdown.signal.aborted) return;
      const next = (delay: number) => {
        timer = setTimeout(async function tickHealthChecks() {
          await scheduler.tick().then(outage.succeeded, (error: unknown) => {
            outage.failed(error, 'health check tick failed');
          });
          if (!shutdown.signal.aborted) next(options.tickIntervalMs);
        }, delay);
        // Background work must not keep the process alive on its own.
        timer.unref();
      };
      next(0);
    },
    async stop() {
      shutdown.abort();
      clearTimeout(timer);
      await ticks.settled();
      await scheduler.idle();
    },
  };
  return scheduler;
}
