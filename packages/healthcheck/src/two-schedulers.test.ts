import type { DatabaseHandle } from '@checkline/db';
import { connectPostgres } from '@checkline/db';
import { testDatabaseUrl } from '@checkline/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { results } from './db/schema.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import {
  createHealthcheckTestDatabase,
  manager,
  startHealthcheck,
  testClock,
} from './testing/harness.ts';
import type { HttpTarget } from './testing/targets.ts';
import { startHttpTarget } from './testing/targets.ts';

const CHECKS = 20;
const INTERVAL_MS = 10_000;
const TICKS = 50;

let database: DatabaseHandle;
/** A second connection pool to the same PostgreSQL, as a second server process has; on PGlite the one handle. */
let second: DatabaseHandle;
let first: HealthcheckHarness;
let other: HealthcheckHarness;
let target: HttpTarget;
const clock = testClock();

beforeAll(async () => {
  database = await createHealthcheckTestDatabase();
  const url = testDatabaseUrl(database);
  second = url ? connectPostgres(url, { poolSize: 5 }) : database;
  const settings = { now: clock.now, scheduler: { concurrency: 4, leaseMarginMs: 1_000 } };
  first = await startHealthcheck(database.db, settings);
  other = await startHealthcheck(second.db, settings);
  target = await startHttpTarget();
});
afterAll(async () => {
  await first.stop();
  await other.stop();
  await target.close();
  if (second !== database) await second.close();
  await database.close();
});

describe('two schedulers on one database', () => {
  it('run every due time of 20 checks exactly once between them, skipping none', async () => {
    const t0 = clock.now().getTime();
    const checks = [];
    for (let i = 0; i < CHECKS; i += 1) {
      const path = `/shared-${i}`;
      // A little latency so runs of both schedulers overlap.
      target.respond(path, { status: 200, delayMs: 5 });
      const system = await first.createSystem();
      checks.push({
        path,
        ...(await first.as(manager).createHealthCheck({
          systemId: system.id,
          name: path,
          type: 'healthcheck.http',
          config: { url: target.url(path) },
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
        first.healthcheck.scheduler().tick(),
        other.healthcheck.scheduler().tick(),
      ]);
      started.first += a;
      started.other += b;
      await Promise.all([
        first.healthcheck.scheduler().idle(),
        other.healthcheck.scheduler().idle(),
      ]);
      clock.advance(1_000);
    }
    await Promise.all([first.runtime.events.settled(), other.runtime.events.settled()]);

    const dueTimes = Array.from({ length: TICKS / 10 }, (_, k) =>
      new Date(t0 + k * INTERVAL_MS).toISOString(),
    );
    const stored = await database.db.select().from(results);
    expect(stored).toHaveLength(CHECKS * dueTimes.length);
    for (const check of checks) {
      const answered = stored
        .filter((row) => row.healthCheckId === check.id)
        .map((row) => row.dueAt?.toISOString())
        .sort();
      expect(answered, check.path).toEqual(dueTimes);
      // The target itself saw one request per due time: no run happened twice.
      expect(target.hits(check.path), check.path).toBe(dueTimes.length);
    }
    expect(started.first + started.other).toBe(CHECKS * dueTimes.length);
    expect(started.first).toBeGreaterThan(0);
    expect(started.other).toBeGreaterThan(0);
    // Each system became healthy once, announced by whichever process recorded it.
    const changes = [...first.changes, ...other.changes];
    expect(changes).toHaveLength(CHECKS);
    expect(new Set(changes.map((change) => change.systemId)).size).toBe(CHECKS);
  });
});
