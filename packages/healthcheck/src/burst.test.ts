import { beforeEach, describe, expect, it } from 'vitest';
import { results } from './db/schema.ts';
import { manager, testClock } from './testing/harness.ts';
import { twoSchedulersPerFile } from './testing/two-schedulers.ts';

/*
 * Issue 22 item 6, the bench's "checks due at once" rows: far more runs fall due at once than a
 * scheduler has slots, and their results wait to be written while other runs go on. Here the
 * clock moves with every request the target sees (as time passes on a busy machine), and each
 * batch of results waits a second, so a scheduler that kept claiming while its results waited
 * would see its own early claims lapse (a lease is 2 s of clock, 14 requests) and take them
 * over: the target asked twice, the second answer dropped. Every request must have exactly one
 * result, with one scheduler and with two.
 */
const CHECKS = 18;
const CONCURRENCY = 3;
const CLOCK_PER_REQUEST_MS = 150;
const clock = testClock();
const settings = {
  now: clock.now,
  scheduler: { concurrency: CONCURRENCY, leaseMarginMs: 1_000, writes: { delayMs: 1_000 } },
};

const world = twoSchedulersPerFile(settings, {
  onRequest: () => clock.advance(CLOCK_PER_REQUEST_MS),
});
beforeEach(async () => {
  await world.first.reset();
});

/** `CHECKS` http checks (timeout 1 s: a lease of 2 s), all due now, each on its own path. */
async function dueAtOnce(prefix: string) {
  const checks = [];
  for (let i = 0; i < CHECKS; i += 1) {
    const path = `/${prefix}-${i}`;
    const system = await world.first.createSystem();
    const created = await world.first.as(manager).createHealthCheck({
      systemId: system.id,
      name: path,
      type: 'healthcheck.http',
      config: { url: world.target.url(path) },
      intervalSeconds: 3_600,
      timeoutMs: 1_000,
    });
    checks.push({ path, id: created.id });
  }
  return checks;
}

/** Each check's target requests and stored results are one each, answering its one due time. */
async function expectEachAskedOnce(checks: { path: string; id: string }[], dueAt: Date) {
  const stored = await world.database.db.select().from(results);
  for (const check of checks) {
    const answered = stored.filter((row) => row.healthCheckId === check.id);
    expect(world.target.hits(check.path), check.path).toBe(1);
    expect(
      answered.map((row) => row.dueAt?.toISOString()),
      check.path,
    ).toEqual([dueAt.toISOString()]);
  }
}

describe('a burst of due runs beyond the scheduler’s slots', () => {
  it('asks each target once and keeps each answer, with one scheduler', async () => {
    const checks = await dueAtOnce('one');
    const dueAt = clock.now();

    const started = await world.first.healthcheck.scheduler().tick();
    await world.first.healthcheck.scheduler().idle();

    expect(started).toBe(CHECKS);
    await expectEachAskedOnce(checks, dueAt);
  });

  it('asks each target once and keeps each answer, with two schedulers', async () => {
    const checks = await dueAtOnce('two');
    const dueAt = clock.now();

    const started = await Promise.all([
      world.first.healthcheck.scheduler().tick(),
      world.other.healthcheck.scheduler().tick(),
    ]);
    await Promise.all([
      world.first.healthcheck.scheduler().idle(),
      world.other.healthcheck.scheduler().idle(),
    ]);

    expect(started[0] + started[1]).toBe(CHECKS);
    expect(started[0]).toBeGreaterThan(0);
    expect(started[1]).toBeGreaterThan(0);
    await expectEachAskedOnce(checks, dueAt);
  });
});
