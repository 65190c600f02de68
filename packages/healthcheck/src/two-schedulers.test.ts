import { describe, expect, it } from 'vitest';
import { results } from './db/schema.ts';
import { manager, testClock } from './testing/harness.ts';
import { twoSchedulersPerFile } from './testing/two-schedulers.ts';

const CHECKS = 20;
const INTERVAL_MS = 10_000;
const TICKS = 50;

const clock = testClock();
const world = twoSchedulersPerFile({
  now: clock.now,
  scheduler: { concurrency: 4, leaseMarginMs: 1_000 },
});

describe('two schedulers on one database', () => {
  it('run every due time of 20 checks exactly once between them, skipping none', async () => {
    const t0 = clock.now().getTime();
    const checks = [];
    for (let i = 0; i < CHECKS; i += 1) {
      const path = `/shared-${i}`;
      // A little latency so runs of both schedulers overlap.
      world.target.respond(path, { status: 200, delayMs: 5 });
      const system = await world.first.createSystem();
      checks.push({
        path,
        ...(await world.first.as(manager).createHealthCheck({
          systemId: system.id,
          name: path,
          type: 'healthcheck.http',
          config: { url: world.target.url(path) },
          intervalSeconds: INTERVAL_MS / 1_000,
          // Runs now overlap result writes; on PGlite those share the test's thread, and on a
          // loaded machine a first write (status recomputes) can hold it past a second.
          timeoutMs: 5_000,
        })),
      });
    }

    const started = { first: 0, other: 0 };
    for (let tick = 0; tick < TICKS; tick += 1) {
      const [a, b] = await Promise.all([
        world.first.healthcheck.scheduler().tick(),
        world.other.healthcheck.scheduler().tick(),
      ]);
      started.first += a;
      started.other += b;
      await Promise.all([
        world.first.healthcheck.scheduler().idle(),
        world.other.healthcheck.scheduler().idle(),
      ]);
      clock.advance(1_000);
    }
    await Promise.all([world.first.runtime.events.settled(), world.other.runtime.events.settled()]);

    const dueTimes = Array.from({ length: TICKS / 10 }, (_, k) =>
      new Date(t0 + k * INTERVAL_MS).toISOString(),
    );
    const stored = await world.database.db.select().from(results);
    expect(stored).toHaveLength(CHECKS * dueTimes.length);
    for (const check of checks) {
      const answered = stored
        .filter((row) => row.healthCheckId === check.id)
        .map((row) => row.dueAt?.toISOString())
        .sort();
      expect(answered, check.path).toEqual(dueTimes);
      // The target itself saw one request per due time: no run happened twice.
      expect(world.target.hits(check.path), check.path).toBe(dueTimes.length);
    }
    expect(started.first + started.other).toBe(CHECKS * dueTimes.length);
    expect(started.first).toBeGreaterThan(0);
    expect(started.other).toBeGreaterThan(0);
    // Each system became healthy once, announced by whichever process recorded it.
    const changes = [...world.first.changes, ...world.other.changes];
    expect(changes).toHaveLength(CHECKS);
    expect(new Set(changes.map((change) => change.systemId)).size).toBe(CHECKS);
  });
});
