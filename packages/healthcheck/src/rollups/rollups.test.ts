import type { DatabaseHandle } from '@checkline/db';
import fc from 'fast-check';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthChecks, resultRollups, results } from '../db/schema.ts';
import type { HealthcheckHarness } from '../testing/harness.ts';
import {
  createHealthcheckTestDatabase,
  parkedCheckRow,
  startHealthcheck,
} from '../testing/harness.ts';
import { writeResults } from '../write-results.ts';
import { LATENCY_EDGES_MS, latencyBucket, percentileOf } from './latency-buckets.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const base = Date.parse('2030-03-01T00:00:00.000Z');
const intervals = [10, 60, 300];

let database: DatabaseHandle;
let h: HealthcheckHarness;
const checkIds: string[] = [];

beforeAll(async () => {
  database = await createHealthcheckTestDatabase();
  h = await startHealthcheck(database.db);
  const system = await h.createSystem();
  for (const [n, intervalSeconds] of intervals.entries()) {
    const [row] = await database.db
      .insert(healthChecks)
      .values(
        parkedCheckRow(system.id, `rollup-${n}`, new Date(base + 365 * DAY_MS), intervalSeconds),
      )
      .returning();
    checkIds.push(row!.id);
  }
});
afterAll(async () => {
  await h.stop();
  await database.close();
});

/** A result in a stream: which check, when (ms after `base`, three days), how it went. */
const resultArbitrary = fc.record({
  check: fc.integer({ min: 0, max: intervals.length - 1 }),
  atMs: fc.integer({ min: 0, max: 3 * DAY_MS }),
  status: fc.constantFrom('pass' as const, 'warn' as const, 'fail' as const),
  latencyMs: fc.oneof(
    fc.integer({ min: 0, max: 120 }),
    fc.integer({ min: 0, max: 90_000 }),
    fc.constantFrom(...LATENCY_EDGES_MS, 0),
  ),
  scheduled: fc.boolean(),
});

type Summary = {
  runs: number;
  failures: number;
  latencySumMs: number;
  latencyMaxMs: number;
  latencyBuckets: number[];
  upSeconds: number;
  downSeconds: number;
};

/** What each rollup must hold, computed from the raw results as stored. */
function summarise(rows: (typeof results.$inferSelect)[]) {
  const expected = new Map<string, Summary>();
  for (const row of rows) {
    const interval = intervals[checkIds.indexOf(row.healthCheckId)]!;
    for (const [granularity, unit] of [
      ['hour', HOUR_MS],
      ['day', DAY_MS],
    ] as const) {
      const start = Math.floor(row.checkedAt.getTime() / unit) * unit;
      const key = `${row.healthCheckId}/${granularity}/${new Date(start).toISOString()}`;
      const summary = expected.get(key) ?? {
        runs: 0,
        failures: 0,
        latencySumMs: 0,
        latencyMaxMs: 0,
        latencyBuckets: Array.from({ length: LATENCY_EDGES_MS.length + 1 }, () => 0),
        upSeconds: 0,
        downSeconds: 0,
      };
      const seconds = row.dueAt ? interval : 0;
      summary.runs += 1;
      summary.failures += row.status === 'fail' ? 1 : 0;
      summary.latencySumMs += row.latencyMs;
      summary.latencyMaxMs = Math.max(summary.latencyMaxMs, row.latencyMs);
      summary.latencyBuckets[latencyBucket(row.latencyMs)]! += 1;
      // A warning (a certificate nearing expiry) is a working service: up, not a failure.
      if (row.status === 'fail') summary.downSeconds += seconds;
      else summary.upSeconds += seconds;
      expected.set(key, summary);
    }
  }
  return expected;
}

describe('rollups', () => {
  it('equal the raw results they summarise, however a random stream is cut into batches', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(resultArbitrary, { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 10 }),
        async (stream, cuts) => {
          await database.db.delete(results).where(inArray(results.healthCheckId, checkIds));
          await database.db
            .delete(resultRollups)
            .where(inArray(resultRollups.healthCheckId, checkIds));
          // Each result gets its own millisecond, so due times stay unique per check.
          const runs = stream.map((entry, index) => {
            const at = new Date(base + entry.atMs - (entry.atMs % 1_000) + index);
            return {
              healthCheckId: checkIds[entry.check]!,
              outcome: { status: entry.status, latencyMs: entry.latencyMs, message: '' },
              dueAt: entry.scheduled ? at : null,
              checkedAt: at,
              lagMs: entry.scheduled ? 0 : null,
              processId: entry.scheduled ? 'p' : null,
            };
          });
          let offset = 0;
          for (let cut = 0; offset < runs.length; cut += 1) {
            const size = cuts[cut % cuts.length]!;
            await writeResults(database.db, runs.slice(offset, offset + size));
            offset += size;
          }
          const raw = await database.db
            .select()
            .from(results)
            .where(inArray(results.healthCheckId, checkIds));
          expect(raw).toHaveLength(runs.length);
          const expected = summarise(raw);
          const rollups = await database.db
            .select()
            .from(resultRollups)
            .where(inArray(resultRollups.healthCheckId, checkIds));
          const actual = new Map(
            rollups.map(({ healthCheckId, granularity, bucketStart, ...summary }) => [
              `${healthCheckId}/${granularity}/${bucketStart.toISOString()}`,
              summary,
            ]),
          );
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);

  it('give a p95 no lower than the true one and within its bucket', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 90_000 }), { minLength: 1, maxLength: 300 }),
        (latencies) => {
          const buckets = Array.from({ length: LATENCY_EDGES_MS.length + 1 }, () => 0);
          for (const latency of latencies) buckets[latencyBucket(latency)]! += 1;
          const sorted = [...latencies].sort((a, b) => a - b);
          const truth = sorted[Math.ceil(0.95 * sorted.length) - 1]!;
          const max = sorted.at(-1)!;
          const reported = percentileOf(buckets, max, 0.95)!;
          expect(reported).toBeGreaterThanOrEqual(truth);
          expect(reported).toBe(Math.min(LATENCY_EDGES_MS[latencyBucket(truth)] ?? max, max));
        },
      ),
    );
  });
});
