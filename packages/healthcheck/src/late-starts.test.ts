import type { DatabaseHandle } from '@checkline/db';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { healthChecks, results } from './db/schema.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import { manager, testClock } from './testing/harness.ts';
import { useHealthcheckSuite } from './testing/suite.ts';
import type { HttpTarget } from './testing/targets.ts';

/*
 * Issue 22 item 6: a claimed run that cannot start before its lease margin runs out is given
 * back and counted in checkline_check_late_starts_total, whichever wait made it late. One run
 * of the origin at a time (maxPerHost 1 caps both the host's turns and its connection slots).
 */
let database: DatabaseHandle;
let h: HealthcheckHarness;
let target: HttpTarget;
const clock = testClock();
const leaseMarginMs = 1_000;

useHealthcheckSuite((suite) => ({ database, h, target } = suite), {
  now: clock.now,
  scheduler: { concurrency: 4, maxPerHost: 1, leaseMarginMs },
});

const scheduler = () => h.healthcheck.scheduler();

async function check(path: string, timeoutMs: number) {
  const system = await h.createSystem();
  return h.as(manager).createHealthCheck({
    systemId: system.id,
    name: path,
    type: 'healthcheck.http',
    config: { url: target.url(path) },
    intervalSeconds: 60,
    timeoutMs,
  });
}

async function counted(family: 'checkLateStarts' | 'checkRuns') {
  const { values } = await h.runtime.metrics[family].get();
  return values
    .filter((value) => value.labels.type === 'healthcheck.http')
    .reduce((sum, value) => sum + value.value, 0);
}

const resultsOf = (healthCheckId: string) =>
  database.db
    .select()
    .from(results)
    .where(eq(results.healthCheckId, healthCheckId))
    .orderBy(asc(results.dueAt));

/** How the origin is kept busy while the run that ends up late waits; `held` ends the hold. */
const waits = [
  {
    waitedFor: 'its host’s turn in our queue, while the clock passes its lease margin',
    path: 'turn',
    holdTimeoutMs: 1_000,
    async occupy() {
      // Claimed together: the hold runs, the other waits for the host's one turn.
      expect(await scheduler().tick()).toBe(2);
      clock.advance(leaseMarginMs + 1);
      return { held: Promise.resolve() };
    },
    finishedRuns: 1,
  },
  {
    waitedFor: 'a connection slot to its origin, held by a manual run, past its lease margin',
    path: 'slot',
    holdTimeoutMs: 3_000,
    async occupy(holdId: string, holdPath: string) {
      // Not scheduled: the hold's only run is the manual one, holding the origin's one slot.
      await database.db
        .update(healthChecks)
        .set({ nextRunAt: new Date(clock.now().getTime() + 3_600_000) })
        .where(eq(healthChecks.id, holdId));
      const held = h.as(manager).runHealthCheck({ id: holdId });
      await vi.waitFor(() => expect(target.hits(holdPath)).toBe(1), { timeout: 2_000 });
      expect(await scheduler().tick()).toBe(1);
      return { held };
    },
    finishedRuns: 0,
  },
];

describe('late starts', () => {
  it.each(waits)(
    'gives back and counts a run that waited for $waitedFor',
    async ({ path, holdTimeoutMs, occupy, finishedRuns }) => {
      const [holdPath, latePath] = [`/${path}/hold`, `/${path}/late`];
      target.respond(holdPath, { hang: true });
      const hold = await check(holdPath, holdTimeoutMs);
      clock.advance(1);
      const late = await check(latePath, 1_000);
      const dueAt = clock.now();
      const lateBefore = await counted('checkLateStarts');
      const runsBefore = await counted('checkRuns');

      const { held } = await occupy(hold.id, holdPath);
      await scheduler().idle();
      await held;

      expect(await counted('checkLateStarts')).toBe(lateBefore + 1);
      // Neither a finished run nor a failure of the target: nothing reached it, nothing written.
      expect(await counted('checkRuns')).toBe(runsBefore + finishedRuns);
      expect(target.hits(latePath)).toBe(0);
      expect(await resultsOf(late.id)).toEqual([]);
      // getSchedulerStatus counts it, in all and for the process that gave it back.
      const status = await h.as(manager).getSchedulerStatus({ windowMinutes: 1 });
      expect(status.lateStarts).toBe(1);
      expect(status.processes).toMatchObject([
        { processId: scheduler().processId, runs: finishedRuns, lateStarts: 1 },
      ]);

      // Given back: the next look runs it for the same due time.
      clock.advance(1);
      expect(await scheduler().tick()).toBe(1);
      await scheduler().idle();
      expect(await resultsOf(late.id)).toMatchObject([{ status: 'pass', dueAt }]);
      expect(await counted('checkLateStarts')).toBe(lateBefore + 1);

      // A window that begins after it no longer counts it; a longer one still does.
      clock.advance(61_000);
      const later = await h.as(manager).getSchedulerStatus({ windowMinutes: 1 });
      expect(later.lateStarts).toBe(0);
      expect(later.processes).toEqual([]);
      expect((await h.as(manager).getSchedulerStatus({ windowMinutes: 2 })).lateStarts).toBe(1);
    },
  );
});
