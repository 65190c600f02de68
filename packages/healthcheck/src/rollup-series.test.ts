import type { DatabaseHandle } from '@checkline/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthChecks } from './db/schema.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import {
  createHealthcheckTestDatabase,
  parkedCheckRow,
  reader,
  startHealthcheck,
} from './testing/harness.ts';
import { writeResults } from './write-results.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const now = new Date('2030-06-15T12:30:00.000Z');

let database: DatabaseHandle;
let h: HealthcheckHarness;
let checkId: string;

/** Runs at these ages: two in the last hour's bucket, one 3 h ago failing, one 3 d ago, one 40 d ago. */
const runs = [
  { ageMs: 10 * 60_000, status: 'pass' as const, latencyMs: 100 },
  { ageMs: 20 * 60_000, status: 'pass' as const, latencyMs: 300 },
  { ageMs: 3 * HOUR_MS, status: 'fail' as const, latencyMs: 900 },
  { ageMs: 3 * DAY_MS, status: 'pass' as const, latencyMs: 50 },
  { ageMs: 40 * DAY_MS, status: 'pass' as const, latencyMs: 70 },
];

beforeAll(async () => {
  database = await createHealthcheckTestDatabase();
  h = await startHealthcheck(database.db, { now: () => now });
  const system = await h.createSystem('rollup-series');
  const [row] = await database.db
    .insert(healthChecks)
    .values(parkedCheckRow(system.id, 'http', new Date(now.getTime() + DAY_MS)))
    .returning();
  checkId = row!.id;
  await writeResults(
    database.db,
    runs.map(({ ageMs, status, latencyMs }) => {
      const at = new Date(now.getTime() - ageMs);
      return {
        healthCheckId: checkId,
        outcome: { status, latencyMs, message: '' },
        dueAt: at,
        checkedAt: at,
        lagMs: 0,
        processId: 'p',
      };
    }),
  );
}, 120_000);
afterAll(async () => {
  await h.stop();
  await database.close();
});

describe('getRollups', () => {
  it('answers hourly buckets over 24h, oldest first, with their mean latency and uptime', async () => {
    const answer = await h.as(reader).getRollups({ healthCheckId: checkId, window: '24h' });
    expect(answer.granularity).toBe('hour');
    expect(answer.buckets).toEqual([
      {
        bucketStart: '2030-06-15T09:00:00.000Z',
        runs: 1,
        failures: 1,
        uptimePercent: 0,
        meanLatencyMs: 900,
        maxLatencyMs: 900,
      },
      {
        bucketStart: '2030-06-15T12:00:00.000Z',
        runs: 2,
        failures: 0,
        uptimePercent: 100,
        meanLatencyMs: 200,
        maxLatencyMs: 300,
      },
    ]);
  });

  it.each([
    ['7d', 'hour', 3],
    ['30d', 'day', 2],
    ['90d', 'day', 3],
  ] as const)('over %s answers %s buckets, %i of them with runs', async (window, unit, count) => {
    const answer = await h.as(reader).getRollups({ healthCheckId: checkId, window });
    expect(answer.granularity).toBe(unit);
    expect(answer.buckets).toHaveLength(count);
    const starts = answer.buckets.map((bucket) => bucket.bucketStart);
    expect(starts).toEqual([...starts].sort());
  });

  it('sums a day of runs into one daily bucket', async () => {
    const { buckets } = await h.as(reader).getRollups({ healthCheckId: checkId, window: '30d' });
    expect(buckets.at(-1)).toMatchObject({
      bucketStart: '2030-06-15T00:00:00.000Z',
      runs: 3,
      failures: 1,
    });
  });

  it('answers NOT_FOUND for a check that does not exist', async () => {
    await expect(
      h.as(reader).getRollups({ healthCheckId: crypto.randomUUID(), window: '24h' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
