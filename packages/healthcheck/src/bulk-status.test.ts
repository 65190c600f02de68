import type { DatabaseHandle } from '@checkline/db';
import { maintenanceContract } from '@checkline/maintenance/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthChecks, results } from './db/schema.ts';
import type { HealthStatus } from './schemas.ts';
import { startCountedHarness } from './testing/counting-database.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import {
  admin,
  createHealthcheckTestDatabase,
  parkedCheckRow,
  reader,
  startHealthcheck,
} from './testing/harness.ts';

const SYSTEMS = 500;
const CHECKS_PER_SYSTEM = 3;

let database: DatabaseHandle;
let h: HealthcheckHarness;
let counted: Awaited<ReturnType<typeof startCountedHarness>>;
const expected = new Map<string, HealthStatus>();
const systemIds: string[] = [];

/** What each fifth of the systems looks like: latest outcomes per check, and maintenance. */
const shapes: { status: HealthStatus; latest: ('pass' | 'fail')[] | null }[] = [
  { status: 'unknown', latest: null },
  { status: 'healthy', latest: ['pass', 'pass', 'pass'] },
  { status: 'degraded', latest: ['pass', 'fail', 'pass'] },
  { status: 'unhealthy', latest: ['fail', 'fail', 'fail'] },
  { status: 'maintenance', latest: ['fail', 'pass', 'pass'] },
];

beforeAll(async () => {
  database = await createHealthcheckTestDatabase();
  h = await startHealthcheck(database.db);
  const now = Date.now();
  for (let i = 0; i < SYSTEMS; i += 1) {
    const system = await h.catalog().createSystem({ name: `bulk-${i}` });
    systemIds.push(system.id);
    expected.set(system.id, shapes[i % shapes.length]!.status);
  }
  const checkRows = systemIds.flatMap((systemId) =>
    Array.from({ length: CHECKS_PER_SYSTEM }, (_, n) =>
      parkedCheckRow(systemId, `check-${n}`, new Date(now + 3_600_000)),
    ),
  );
  const created = [];
  for (let i = 0; i < checkRows.length; i += 500) {
    created.push(
      ...(await database.db
        .insert(healthChecks)
        .values(checkRows.slice(i, i + 500))
        .returning()),
    );
  }
  const resultRows = created.flatMap((check) => {
    const index = systemIds.indexOf(check.systemId);
    const latest = shapes[index % shapes.length]!.latest;
    if (!latest) return [];
    const outcome = latest[Number(check.name.slice('check-'.length))]!;
    const opposite = outcome === 'pass' ? 'fail' : 'pass';
    // Older results say the opposite, so only the latest can give the expected answer.
    return [3, 2, 1].map((age) => ({
      healthCheckId: check.id,
      status: age === 1 ? outcome : opposite,
      latencyMs: 1,
      message: '',
      dueAt: new Date(now - age * 60_000),
      checkedAt: new Date(now - age * 60_000),
    }));
  });
  for (let i = 0; i < resultRows.length; i += 1_000) {
    await database.db.insert(results).values(resultRows.slice(i, i + 1_000));
  }
  // Written around the scheduler, so each check's alert status is set as counting would have.
  await database.db.execute(sql`
    update ${healthChecks} as checks set alert_status = latest.status
    from (select distinct on (health_check_id) health_check_id, status from ${results}
      order by health_check_id, checked_at desc) as latest
    where latest.health_check_id = checks.id`);
  const inMaintenance = systemIds.filter(
    (_, i) => shapes[i % shapes.length]!.status === 'maintenance',
  );
  await h.client('maintenance', maintenanceContract, admin).scheduleWindow({
    title: 'bulk upgrade',
    systemIds: inMaintenance,
    startAt: new Date(now - 60_000).toISOString(),
    endAt: new Date(now + 3_600_000).toISOString(),
  });
  counted = await startCountedHarness(database);
}, 180_000);
afterAll(async () => {
  await counted.stop();
  await h.stop();
  await database.close();
});

const statementsFor = (ids: string[]) =>
  counted.count((harness) => harness.as(reader).getBulkSystemHealthStatus({ systemIds: ids }));

describe('getBulkSystemHealthStatus for 500 systems with 3 checks each', () => {
  it('answers every system correctly', async () => {
    const started = performance.now();
    const { statuses } = await counted.harness.as(reader).getBulkSystemHealthStatus({ systemIds });
    const elapsed = performance.now() - started;
    expect(statuses.map((status) => status.systemId)).toEqual(systemIds);
    for (const status of statuses) {
      expect(status.status, status.systemId).toBe(expected.get(status.systemId));
      expect(status.checks).toHaveLength(CHECKS_PER_SYSTEM);
    }
    expect(
      statuses
        .filter((s) => s.status === 'unknown')
        .every((s) => s.checks.every((c) => c.latest === null)),
    ).toBe(true);
    console.info(
      `getBulkSystemHealthStatus, ${SYSTEMS} systems on ${database.kind}: ${elapsed.toFixed(1)} ms`,
    );
  });

  it('sends the same few statements for 1, 50 and 500 systems', async () => {
    // System 4 is under maintenance, so every call also reads the window's systems.
    const one = await statementsFor(systemIds.slice(4, 5));
    const fifty = await statementsFor(systemIds.slice(0, 50));
    const all = await statementsFor(systemIds);
    expect(all.answer.statuses).toHaveLength(SYSTEMS);
    expect(one.count).toBeGreaterThan(0);
    expect(fifty.count).toBe(one.count);
    expect(all.count).toBe(one.count);
    // One of them asks the catalog which of the systems exist: a missing one is left out.
    expect(all.count).toBeLessThanOrEqual(4);
    const withoutWindows = await statementsFor(systemIds.slice(0, 1));
    expect(withoutWindows.count).toBeLessThanOrEqual(all.count);
  });

  it('counts honestly: the catalog lookup of a single or a bulk call shows as a statement', async () => {
    const single = (
      await counted.count((harness) =>
        harness.as(reader).getSystemHealthStatus({ systemId: systemIds[1]! }),
      )
    ).count;
    expect(counted.statements.some((statement) => statement.includes('"catalog"."systems"'))).toBe(
      true,
    );
    const bulkOfOne = await statementsFor(systemIds.slice(1, 2));
    expect(bulkOfOne.count).toBe(single);
    expect(counted.statements.some((statement) => statement.includes('"catalog"."systems"'))).toBe(
      true,
    );
  });
});
