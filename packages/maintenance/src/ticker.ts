import type { EventBus, Logger } from '@checkline/core';
import { createPeriodicTask, enqueueEvent } from '@checkline/core';
import type { Database } from '@checkline/db';
import { maintenanceEnded, maintenanceStarted } from './events.ts';
import { nextBoundary } from './next-boundary.ts';
import type { Announcements } from './transitions.ts';
import { claimTransitions } from './transitions.ts';

/** Announces, once across all processes, the windows that started or ended by `now`. */
export async function announceTransitions(
  { db, events }: { db: Database; events: EventBus },
  now: Date,
): Promise<Announcements> {
  // A claimed transition and its event commit together: neither exists without the other.
  const { announced, eventIds } = await db.transaction(async (tx) => {
    const claimed = await claimTransitions(tx, now);
    const ids: string[] = [];
    for (const payload of claimed.started)
      ids.push(await enqueueEvent(tx, maintenanceStarted, payload));
    for (const payload of claimed.ended)
      ids.push(await enqueueEvent(tx, maintenanceEnded, payload));
    return { announced: claimed, eventIds: ids };
  });
  events.dispatch(eventIds);
  return announced;
}

export interface MaintenanceTickerDeps {
  db: Database;
  events: EventBus;
  logger: Logger;
  now: () => Date;
  /** Milliseconds between looks for windows that started or ended. */
  tickIntervalMs: number;
}

export interface MaintenanceTicker {
  /** Announces what started or ended by `now` (default: the ticker's clock). */
  tick(now?: Date): Promise<Announcements>;
  /** Looks for the next start or end again (a window was scheduled or moved). */
  armNextBoundary(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Announces windows as they start and end: every `tickIntervalMs`, and at the next start or end
 * when it comes sooner (a few milliseconds after it), so a window starts and ends on time rather
 * than at the next tick. Whichever process wakes first claims the transition.
 */
export function startMaintenanceTicker(deps: MaintenanceTickerDeps): MaintenanceTicker {
  let boundaryTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const tick = (now = deps.now()) => announceTransitions(deps, now);

  // The tick stays the safety net, and re-arms the boundary timer after every round.
  async function armNextBoundary() {
    const next = await nextBoundary(deps.db);
    clearTimeout(boundaryTimer);
    boundaryTimer = undefined;
    if (!next || stopped) return;
    const delay = next.getTime() - deps.now().getTime();
    if (delay > deps.tickIntervalMs) return;
    // A transition another process is claiming right now is looked at again shortly, not spun on.
    boundaryTimer = setTimeout(() => ticker.wake(), Math.max(delay + 5, 20));
    boundaryTimer.unref();
  }

  const ticker = createPeriodicTask({
    name: 'maintenance ticker',
    intervalMs: deps.tickIntervalMs,
    logger: deps.logger,
    run: async () => {
      await tick();
      await armNextBoundary();
    },
  });
  ticker.start();
  void armNextBoundary().catch(() => undefined);

  return {
    tick,
    armNextBoundary,
    async stop() {
      stopped = true;
      clearTimeout(boundaryTimer);
      await ticker.stop();
      clearTimeout(boundaryTimer);
    },
  };
}
