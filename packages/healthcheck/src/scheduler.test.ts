import type { DatabaseHandle } from '@checkline/db';
import { eventOutbox } from '@checkline/db';
import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { claimDueRuns } from './claims.ts';
import { healthChecks, results, systemStatuses } from './db/schema.ts';
import { healthStatusChanged } from './events.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import { manager, startHealthcheck, testClock } from './testing/harness.ts';
import { useHealthcheckSuite } from './testing/suite.ts';
import type { HttpTarget } from './testing/targets.ts';

let database: DatabaseHandle;
let h: HealthcheckHarness;
let target: HttpTarget;
const clock = testClock();
const leaseMarginMs = 1_000;

useHealthcheckSuite((suite) => ({ database, h, target } = suite), {
  now: clock.now,
  scheduler: { concurrency: 2, leaseMarginMs },
});

const scheduler = () => h.healthcheck.scheduler();
const at = (ms: number) => new Date(ms).toISOString();

async function check(
  path: string,
  options: { intervalSeconds?: number; timeoutMs?: number } = {},
  via: HealthcheckHarness = h,
) {
  const system = await via.createSystem();
  return via.as(manager).createHealthCheck({
    systemId: system.id,
    name: path,
    type: 'healthcheck.http',
    config: { url: target.url(path) },
    intervalSeconds: options.intervalSeconds ?? 10,
    timeoutMs: options.timeoutMs ?? 1_000,
  });
}

async function resultsOf(healthCheckId: string) {
  return database.db
    .select()
    .from(results)
    .where(eq(results.healthCheckId, healthCheckId))
    .orderBy(asc(results.dueAt));
}

async function tickAndSettle() {
  const started = await scheduler().tick();
  await scheduler().idle();
  await h.runtime.events.settled();
  return started;
}

describe('scheduler', () => {
  it('runs a check once per due time and moves nextRunAt on by its interval', async () => {
    const created = await check('/steady');
    const t0 = clock.now().getTime();
    expect(await tickAndSettle()).toBe(1);
    expect(await tickAndSettle()).toBe(0);
    clock.advance(10_000);
    expect(await tickAndSettle()).toBe(1);
    const stored = await resultsOf(created.id);
    expect(stored.map((row) => row.dueAt?.toISOString())).toEqual([at(t0), at(t0 + 10_000)]);
    expect(stored.map((row) => row.status)).toEqual(['pass', 'pass']);
    const [row] = await database.db
      .select()
      .from(healthChecks)
      .where(eq(healthChecks.id, created.id));
    expect(row).toMatchObject({
      nextRunAt: new Date(t0 + 20_000),
      claimedDueAt: null,
      claimedUntil: null,
    });
    expect(target.hits('/steady')).toBe(2);
  });

  it('runs a stretch it missed once, then keeps the cadence', async () => {
    const created = await check('/missed');
    const t0 = clock.now().getTime();
    await tickAndSettle();
    clock.advance(35_000);
    expect(await tickAndSettle()).toBe(1);
    const [row] = await database.db
      .select()
      .from(healthChecks)
      .where(eq(healthChecks.id, created.id));
    expect(row?.nextRunAt).toEqual(new Date(t0 + 40_000));
    expect((await resultsOf(created.id)).map((r) => r.dueAt?.toISOString())).toEqual([
      at(t0),
      at(t0 + 10_000),
    ]);
  });

  it('retries a run whose process died once its lease lapses, with the same due time', async () => {
    const created = await check('/crash', { timeoutMs: 2_000 });
    const t0 = clock.now().getTime();
    // A process claims the run and dies before writing a result.
    const [claimed] = await database.db.transaction((tx) =>
      claimDueRuns(tx, { now: clock.now(), limit: 10, leaseMarginMs }),
    );
    expect(claimed).toMatchObject({ healthCheckId: created.id, dueAt: new Date(t0) });
    clock.advance(2_000 + leaseMarginMs - 1);
    expect(await tickAndSettle()).toBe(0);
    clock.advance(1);
    expect(await tickAndSettle()).toBe(1);
    expect((await resultsOf(created.id)).map((r) => r.dueAt?.toISOString())).toEqual([at(t0)]);
    const [row] = await database.db
      .select()
      .from(healthChecks)
      .where(eq(healthChecks.id, created.id));
    expect(row).toMatchObject({ nextRunAt: new Date(t0 + 10_000), claimedDueAt: null });
    expect(target.hits('/crash')).toBe(1);
  });

  it('keeps claiming while slots are free: a burst of due checks runs on one tick, beside a slow target holding a slot', async () => {
    target.respond('/slow', { hang: true });
    const slow = await check('/slow', { timeoutMs: 5_000 });
    clock.advance(1);
    const fast: { id: string }[] = [];
    for (const path of ['/fast-1', '/fast-2', '/fast-3', '/fast-4', '/fast-5']) {
      fast.push(await check(path));
    }
    // Two slots: the tick claims again each time a fast run frees one, with no further tick.
    expect(await scheduler().tick()).toBe(6);
    await vi.waitFor(
      async () => {
        for (const created of fast) expect(await resultsOf(created.id)).toHaveLength(1);
      },
      { timeout: 4_000, interval: 10 },
    );
    expect(await resultsOf(slow.id)).toEqual([]);
    await scheduler().idle();
    expect(await resultsOf(slow.id)).toMatchObject([
      { status: 'fail', message: 'Timed out after 5000 ms' },
    ]);
  });

  it('writes each status change to the outbox with its result and dispatches it once, after commit', async () => {
    const created = await check('/flip');
    const seenInDatabase: string[] = [];
    const eventIds: string[] = [];
    const unsubscribe = h.runtime.events.subscribe(
      healthStatusChanged,
      async (change, { eventId }) => {
        eventIds.push(eventId);
        const [row] = await database.db
          .select()
          .from(systemStatuses)
          .where(eq(systemStatuses.systemId, change.systemId));
        seenInDatabase.push(row?.status ?? 'missing');
      },
    );
    await tickAndSettle();
    target.respond('/flip', { status: 500 });
    clock.advance(10_000);
    await tickAndSettle();
    clock.advance(10_000);
    await tickAndSettle();
    unsubscribe();
    expect(h.changes).toMatchObject([
      { systemId: created.systemId, previous: 'unknown', current: 'healthy' },
      { systemId: created.systemId, previous: 'healthy', current: 'unhealthy' },
    ]);
    expect(seenInDatabase).toEqual(['healthy', 'unhealthy']);
    const written = await database.db
      .select()
      .from(eventOutbox)
      .where(sql`${eventOutbox.payload}->>'systemId' = ${created.systemId}`);
    expect(written.map((row) => row.id).sort()).toEqual([...eventIds].sort());
    expect(written.every((row) => row.attempts === 1 && row.dispatchedAt !== null)).toBe(true);
  });

  it('purges results older than the retention (7 days by default)', async () => {
    const created = await check('/old', { intervalSeconds: 86_400 });
    await h.as(manager).runHealthCheck({ id: created.id });
    clock.advance(5 * 24 * 3_600_000);
    await h.as(manager).runHealthCheck({ id: created.id });
    clock.advance(3 * 24 * 3_600_000);
    await tickAndSettle();
    const kept = await resultsOf(created.id);
    expect(kept).toHaveLength(2);
    expect(
      kept.every((row) => clock.now().getTime() - row.checkedAt.getTime() < 7 * 86_400_000),
    ).toBe(true);
    expect(await scheduler().purge()).toBe(0);
  });
});

describe('scheduler lifecycle', () => {
  it('starts ticking in ready and stops in stop', async () => {
    const running = await startHealthcheck(database.db, {
      scheduler: { autoStart: true, tickIntervalMs: 20 },
    });
    const created = await check('/lifecycle', {}, running);
    await vi.waitFor(async () => expect(await resultsOf(created.id)).toHaveLength(1), {
      timeout: 5_000,
      interval: 20,
    });
    await running.stop();
    expect(() => running.healthcheck.scheduler()).toThrow(/between ready and stop/);
    await database.db
      .update(healthChecks)
      .set({ nextRunAt: new Date(0) })
      .where(eq(healthChecks.id, created.id));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await resultsOf(created.id)).toHaveLength(1);
  });

  it('gives an unfinished run back on stop so another process can take it at once', async () => {
    target.respond('/stuck', { hang: true });
    const stopping = await startHealthcheck(database.db, { now: clock.now });
    const created = await check('/stuck', { timeoutMs: 5_000 });
    const t0 = clock.now().getTime();
    expect(await stopping.healthcheck.scheduler().tick()).toBe(1);
    await vi.waitFor(() => expect(target.hits('/stuck')).toBe(1), { timeout: 2_000, interval: 10 });
    await stopping.stop();
    expect(await resultsOf(created.id)).toEqual([]);
    target.respond('/stuck', { status: 200 });
    expect(await tickAndSettle()).toBe(1);
    expect((await resultsOf(created.id)).map((r) => r.dueAt?.toISOString())).toEqual([at(t0)]);
  });
});
