import type { DatabaseHandle } from '@checkline/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthChecks, lateStarts, resultRollups, results } from './db/schema.ts';
import { purgeHistory } from './retention.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import {
  createHealthcheckTestDatabase,
  parkedCheckRow,
  startHealthcheck,
} from './testing/harness.ts';
import { writeResults } from './write-results.ts';

const DAY_MS = 24 * 3_600_000;
const now = new Date('2030-06-15T12:00:00.000Z');

let database: DatabaseHandle;
let h: HealthcheckHarness;
let checkId: string;

beforeAll(async () => {
  database = await createHealthcheckTestDatabase();
  h = await startHealthcheck(database.db, { now: () => now });
  const system = await h.createSystem();
  const [row] = await database.db
    .insert(healthChecks)
    .values(parkedCheckRow(system.id, 'kept', new Date(now.getTime() + DAY_MS)))
    .returning();
  checkId = row!.id;
});
afterAll(async () => {
  await h.stop();
  await database.close();
});

/** One result a day for `days` days before `now`, one per hour-bucket and day-bucket each. */
async function seed(days: number) {
  await database.db.delete(results);
  await database.db.delete(resultRollups);
  const runs = Array.from({ length: days }, (_, day) => {
    const at = new Date(now.getTime() - (day + 1) * DAY_MS + 1_000);
    return {
      healthCheckId: checkId,
      outcome: { status: 'pass' as const, latencyMs: 5, message: '' },
      dueAt: at,
      checkedAt: at,
      lagMs: 0,
      processId: 'p',
    };
  });
  await writeResults(database.db, runs);
}

describe('retention', () => {
  it('purges raw results past their retention in chunks, and rollups only past theirs', async () => {
    await seed(400);
    const purged = await purgeHistory(
      database.db,
      {
        resultsBefore: new Date(now.getTime() - 7 * DAY_MS),
        rollupsBefore: new Date(now.getTime() - 365 * DAY_MS),
      },
      7,
    );
    const kept = await database.db.select().from(results);
    expect(kept).toHaveLength(7);
    expect(kept.every((row) => row.checkedAt.getTime() >= now.getTime() - 7 * DAY_MS)).toBe(true);
    const rollups = await database.db.select().from(resultRollups);
    // A bucket goes once it starts before the cutoff: the results sit at 12:00:01, so their
    // hours start 365 days ago or later for 365 of them, their days (at 00:00) for 364.
    expect(rollups.filter((row) => row.granularity === 'hour')).toHaveLength(365);
    expect(rollups.filter((row) => row.granularity === 'day')).toHaveLength(364);
    expect(rollups.every((row) => row.bucketStart.getTime() >= now.getTime() - 365 * DAY_MS)).toBe(
      true,
    );
    expect(purged).toBe(393 + 35 + 36);
  });

  it('keeps everything younger than the cutoffs', async () => {
    await seed(5);
    expect(
      await purgeHistory(database.db, {
        resultsBefore: new Date(now.getTime() - 7 * DAY_MS),
        rollupsBefore: new Date(now.getTime() - 365 * DAY_MS),
      }),
    ).toBe(0);
    expect(await database.db.select().from(results)).toHaveLength(5);
  });

  it('purges late starts with the results: past the results’ retention', async () => {
    await seed(0);
    await database.db.insert(lateStarts).values(
      [1, 2, 8, 9, 10].map((days) => ({
        healthCheckId: checkId,
        dueAt: new Date(now.getTime() - days * DAY_MS),
        at: new Date(now.getTime() - days * DAY_MS + 1_000),
        processId: 'p',
        waitedFor: 'turn' as const,
      })),
    );
    expect(
      await purgeHistory(database.db, {
        resultsBefore: new Date(now.getTime() - 7 * DAY_MS),
        rollupsBefore: new Date(now.getTime() - 365 * DAY_MS),
      }),
    ).toBe(3);
    const kept = await database.db.select().from(lateStarts);
    expect(kept.map((row) => row.at.getTime()).sort((a, b) => a - b)).toEqual(
      [2, 1].map((days) => now.getTime() - days * DAY_MS + 1_000),
    );
  });

  it('is what the scheduler runs, with 7 days of results by default', async () => {
    await seed(10);
    expect(await h.healthcheck.scheduler().purge()).toBe(3);
    expect(await database.db.select().from(results)).toHaveLength(7);
  });
});
