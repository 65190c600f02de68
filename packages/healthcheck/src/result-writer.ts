import type { EventBus } from '@checkline/core';
import { enqueueEvent } from '@checkline/core';
import type { Database } from '@checkline/db';
import { healthStatusChanged } from './events.ts';
import type { MaintenanceLookup } from './maintenance.ts';
import { recomputeSystemStatus } from './system-status.ts';
import type { CountedResult } from './count-alert-states.ts';
import { countAlertStates, lockChecks } from './count-alert-states.ts';
import type { FinishedRun } from './write-results.ts';
import { writeResults } from './write-results.ts';

export interface ResultWriterDeps {
  db: Database;
  events: EventBus;
  inMaintenance: MaintenanceLookup;
}

export interface ResultWriterSettings {
  /** Runs written in one statement at most. Default 500. */
  maxBatch?: number;
  /** How long a first finished run waits for others before its batch is written. Default 10 ms. */
  delayMs?: number;
}

export interface ResultWriter {
  /** Resolves once the run's result has committed (rejects when its batch failed). */
  write(run: FinishedRun): Promise<void>;
  /** Resolves once every run handed over so far is written (or failed). */
  flush(): Promise<void>;
}

interface Pending {
  run: FinishedRun;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Systems whose status may have changed: one of their checks has a new alert status. */
function changedSystems(written: readonly CountedResult[]) {
  const latest = new Map<string, Date>();
  for (const { row, systemId, alertChanged } of written) {
    if (!alertChanged) continue;
    const at = latest.get(systemId);
    if (!at || row.checkedAt > at) latest.set(systemId, row.checkedAt);
  }
  // Locked in one order by every process, so two batches never wait on each other in a circle.
  return [...latest].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Group commit for the scheduler's results: runs finishing while a batch is being written wait
 * and go together in the next one. A batch is one transaction: one statement for the results,
 * their claims and rollups, then a status recompute for each system one of whose checks changed
 * outcome, with its event in the outbox; events are dispatched after commit.
 */
export function createResultWriter(
  deps: ResultWriterDeps,
  settings: ResultWriterSettings = {},
): ResultWriter {
  const maxBatch = settings.maxBatch ?? 500;
  const delayMs = settings.delayMs ?? 10;
  const pending: Pending[] = [];
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function writeBatch(runs: FinishedRun[]) {
    const eventIds = await deps.db.transaction(async (tx) => {
      await lockChecks(
        tx,
        runs.map((run) => run.healthCheckId),
      );
      const written = await countAlertStates(tx, await writeResults(tx, runs));
      const ids: string[] = [];
      for (const [systemId, at] of changedSystems(written)) {
        const change = await recomputeSystemStatus(tx, systemId, at, deps.inMaintenance);
        if (change) ids.push(await enqueueEvent(tx, healthStatusChanged, change));
      }
      return ids;
    });
    deps.events.dispatch(eventIds);
  }

  async function drain() {
    while (pending.length > 0) {
      const batch = pending.splice(0, maxBatch);
      try {
        await writeBatch(batch.map((entry) => entry.run));
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
  }

  function start() {
    clearTimeout(timer);
    timer = undefined;
    if (flushing || pending.length === 0) return;
    flushing = drain().finally(() => {
      flushing = undefined;
      if (pending.length > 0) schedule();
    });
  }

  function schedule() {
    // A batch being written takes everything that arrived meanwhile when it is done.
    if (flushing) return;
    if (pending.length >= maxBatch) return start();
    timer ??= setTimeout(start, delayMs);
  }

  return {
    write(run) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ run, resolve, reject });
        schedule();
      });
    },
    async flush() {
      start();
      while (flushing) await flushing;
    },
  };
}
