import type { Logger } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { asc, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { healthChecks, results } from './db/schema.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import { admin, manager, reader, testClock } from './testing/harness.ts';
import { useHealthcheckSuite } from './testing/suite.ts';
import type { HttpTarget } from './testing/targets.ts';

/** A logger that keeps every line, to count warnings. */
function recordingLogger() {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (fields: unknown, message?: string) =>
    void lines.push({
      level,
      message: message ?? String(fields),
      fields: typeof fields === 'object' && fields ? (fields as Record<string, unknown>) : {},
    });
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return { logger, lines };
}

let database: DatabaseHandle;
let h: HealthcheckHarness;
let target: HttpTarget;
const clock = testClock();
const log = recordingLogger();

useHealthcheckSuite((suite) => ({ database, h, target } = suite), {
  now: clock.now,
  logger: log.logger,
  scheduler: { concurrency: 1, behindAfterMs: 5_000, processId: 'process-a' },
});
beforeEach(() => {
  log.lines.length = 0;
});

const scheduler = () => h.healthcheck.scheduler();

async function tickAndSettle() {
  const started = await scheduler().tick();
  await scheduler().idle();
  await h.runtime.events.settled();
  return started;
}

async function check(path: string) {
  const system = await h.createSystem();
  return h.as(manager).createHealthCheck({
    systemId: system.id,
    name: path,
    type: 'healthcheck.http',
    config: { url: target.url(path) },
    intervalSeconds: 10,
    timeoutMs: 1_000,
  });
}

const lateOf = async (systemId: string) =>
  (await h.as(reader).getSystemHealthStatus({ systemId })).checks[0]?.late;

describe('lag', () => {
  it('records each run’s lag (start minus due time) and reports a check later than its interval as late', async () => {
    const created = await check('/lag');
    await tickAndSettle();
    expect(await lateOf(created.systemId)).toBe(false);
    // The run due at t0+10 s starts at t0+25 s: 15 s late, more than its 10 s interval.
    clock.advance(25_000);
    await tickAndSettle();
    const stored = await database.db
      .select()
      .from(results)
      .where(eq(results.healthCheckId, created.id))
      .orderBy(asc(results.dueAt));
    expect(stored.map((row) => [row.lagMs, row.processId])).toEqual([
      [0, 'process-a'],
      [15_000, 'process-a'],
    ]);
    const status = await h.as(reader).getSystemHealthStatus({ systemId: created.systemId });
    expect(status.checks[0]).toMatchObject({ late: true, latest: { lagMs: 15_000 } });
    // Due at t0+30 s, started at t0+35 s: late by half an interval only.
    clock.advance(10_000);
    await tickAndSettle();
    expect(await lateOf(created.systemId)).toBe(false);
  });

  it('reports as late a check whose due time has waited unclaimed for more than its interval', async () => {
    const created = await check('/waiting');
    await tickAndSettle();
    expect(await lateOf(created.systemId)).toBe(false);
    // No scheduler has claimed it for a minute of the database's clock.
    await database.db
      .update(healthChecks)
      .set({ nextRunAt: new Date(Date.now() - 60_000) })
      .where(eq(healthChecks.id, created.id));
    expect(await lateOf(created.systemId)).toBe(true);
  });

  it('a run by hand records no lag', async () => {
    const created = await check('/by-hand');
    const result = await h.as(manager).runHealthCheck({ id: created.id });
    expect(result.lagMs).toBeNull();
  });
});

describe('falling behind', () => {
  it('warns once when due runs pile up, says once when caught up, and warns again on the next pile-up', async () => {
    for (const path of ['/a', '/b', '/c', '/d']) await check(path);
    await tickAndSettle();
    expect(log.lines.filter((line) => line.level === 'warn')).toEqual([]);
    // A minute without the scheduler: four runs due 50 s ago, one slot.
    clock.advance(60_000);
    expect(await tickAndSettle()).toBe(4);
    const warnings = log.lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/falling behind/);
    expect(warnings[0]!.fields).toMatchObject({ processId: 'process-a', dueBacklog: 3 });
    expect(log.lines.filter((line) => line.message.includes('caught up'))).toHaveLength(1);
    clock.advance(60_000);
    await tickAndSettle();
    expect(log.lines.filter((line) => line.level === 'warn')).toHaveLength(2);
  });
});

describe('getSchedulerStatus', () => {
  it('answers the due backlog, runs per second and lag percentiles, per process', async () => {
    const checks = [];
    for (const path of ['/s1', '/s2', '/s3']) checks.push(await check(path));
    await tickAndSettle();
    clock.advance(12_000);
    await tickAndSettle();
    const status = await h.as(admin).getSchedulerStatus({ windowMinutes: 1 });
    expect(status).toMatchObject({
      at: clock.now().toISOString(),
      windowSeconds: 60,
      dueBacklog: 0,
      oldestDueAt: null,
      runsPerSecond: 6 / 60,
      processes: [{ processId: 'process-a', runs: 6, runsPerSecond: 6 / 60 }],
    });
    // Three runs started on time, three 2 s late.
    expect(status.lagMs).toEqual({ p50: 0, p99: 2_000 });
    expect(status.processes[0]!.lagMs).toEqual({ p50: 0, p99: 2_000 });
    // Next due at t0+20 s; at t0+42 s, with no scheduler looking, all three wait.
    clock.advance(30_000);
    const behind = await h.as(admin).getSchedulerStatus({});
    expect(behind).toMatchObject({
      dueBacklog: 3,
      oldestDueAt: new Date(clock.now().getTime() - 22_000).toISOString(),
    });
  });

  it('is for those who manage health checks', async () => {
    await expect(h.as(reader).getSchedulerStatus({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
