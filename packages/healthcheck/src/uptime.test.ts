import type { DatabaseHandle } from '@checkline/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthChecks } from './db/schema.ts';
import { startCountedHarness } from './testing/counting-database.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import {
  createHealthcheckTestDatabase,
  parkedCheckRow,
  reader,
  startHealthcheck,
} from './testing/harness.ts';
import type { FinishedRun } from './write-results.ts';
import { writeResults } from './write-results.ts';

const SYSTEMS = 500;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const now = new Date('2030-06-15T12:30:00.000Z');

let database: DatabaseHandle;
let h: HealthcheckHarness;
let counted: Awaited<ReturnType<typeof startCountedHarness>>;
const systemIds: string[] = [];
const checkIds: string[] = [];

/** Each check: a pass 1 h ago, a fail (odd systems) or pass 3 d ago, a pass 20 d ago, a fail 60 d ago. */
const history = (index: number) => [
  { ageMs: HOUR_MS, status: 'pass' as const, latencyMs: 40 },
  {
    ageMs: 3 * DAY_MS,
    status: index % 2 === 1 ? ('fail' as const) : ('pass' as const),
    latencyMs: 400,
  },
  { ageMs: 20 * DAY_MS, status: 'pass' as const, latencyMs: 40 },
  { ageMs: 60 * DAY_MS, status: 'fail' as const, latencyMs: 4_000 },
];

beforeAll(async () => {
  database = await createHealthcheckTestDatabase();
  h = await startHealthcheck(database.db, { now: () => now });
  for (let i = 0; i < SYSTEMS; i += 1) {
    systemIds.push((await h.catalog().createSystem({ name: `uptime-${i}` })).id);
  }
  const rows = await database.db
    .insert(healthChecks)
    .values(
      systemIds.map((systemId) =>
        parkedCheckRow(systemId, 'http', new Date(now.getTime() + DAY_MS)),
      ),
    )
    .returning();
  const bySystem = new Map(rows.map((row) => [row.systemId, row.id]));
  checkIds.push(...systemIds.map((id) => bySystem.get(id)!));
  const runs: FinishedRun[] = checkIds.flatMap((healthCheckId, index) =>
    history(index).map(({ ageMs, status, latencyMs }) => {
      const at = new Date(now.getTime() - ageMs);
      return {
        healthCheckId,
        outcome: { status, latencyMs, message: '' },
        dueAt: at,
        checkedAt: at,
        lagMs: 0,
        processId: 'p',
      };
    }),
  );
  for (let i = 0; i < runs.length; i += 500)
    await writeResults(database.db, runs.slice(i, i + 500));
  counted = await startCountedHarness(database, { now: () => now });
}, 180_000);
afterAll(async () => {
  await counted.stop();
  await h.stop();
  await database.close();
});

const statementsFor = (ids: string[]) =>
  counted.count((harness) => harness.as(reader).getUptime({ systemIds: ids }));

describe('getUptime', () => {
  it('answers uptime, runs, failures and latency per window from the rollups', async () => {
    const { systems, checks } = await h.as(reader).getUptime({ systemIds: systemIds.slice(0, 2) });
    // Checks come in system id order, systems in the order asked.
    expect(checks.map((check) => check.healthCheckId).sort()).toEqual(checkIds.slice(0, 2).sort());
    expect(systems.map((system) => system.systemId)).toEqual(systemIds.slice(0, 2));
    const even = systems[0]!.windows;
    const odd = systems[1]!.windows;
    expect(even.map((w) => [w.window, w.runs, w.failures, w.uptimePercent])).toEqual([
      ['24h', 1, 0, 100],
      ['7d', 2, 0, 100],
      ['30d', 3, 0, 100],
      ['90d', 4, 1, 75],
    ]);
    expect(odd.map((w) => [w.window, w.runs, w.failures, w.uptimePercent])).toEqual([
      ['24h', 1, 0, 100],
      ['7d', 2, 1, 50],
      ['30d', 3, 1, (100 * 2) / 3],
      ['90d', 4, 2, 50],
    ]);
    expect(odd[3]).toMatchObject({ downMinutes: 2, meanLatencyMs: (40 + 400 + 40 + 4_000) / 4 });
    // p95 of 40, 40, 400, 4000 is 4000 ms: the bucket [3000, 5000) capped by the largest seen.
    expect(odd[3]!.p95LatencyMs).toBe(4_000);
    // 40 and 400: the bucket [300, 500) holds it, and 400 is the largest seen.
    expect(odd[1]!.p95LatencyMs).toBe(400);
    expect(even[0]!.p95LatencyMs).toBe(40);
    expect(checks.find((check) => check.healthCheckId === checkIds[1])!.windows).toEqual(odd);
  });

  it('answers checks by id, and only the windows asked for', async () => {
    const { checks, systems } = await h
      .as(reader)
      .getUptime({ healthCheckIds: [checkIds[3]!], windows: ['7d'] });
    expect(systems).toEqual([]);
    expect(checks).toEqual([
      {
        healthCheckId: checkIds[3],
        systemId: systemIds[3],
        windows: [expect.objectContaining({ window: '7d', runs: 2, failures: 1 })],
      },
    ]);
  });

  it('refuses a call naming neither systems nor checks', async () => {
    await expect(h.as(reader).getUptime({})).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('sends the same few statements for 1, 50 and 500 systems', async () => {
    const one = await statementsFor(systemIds.slice(0, 1));
    const fifty = await statementsFor(systemIds.slice(0, 50));
    const all = await statementsFor(systemIds);
    expect(all.answer.systems).toHaveLength(SYSTEMS);
    expect(all.answer.systems.every((system) => system.windows[3]!.runs === 4)).toBe(true);
    expect(one.count).toBeGreaterThan(0);
    expect(fifty.count).toBe(one.count);
    expect(all.count).toBe(one.count);
    expect(all.count).toBeLessThanOrEqual(3);
  });
});
