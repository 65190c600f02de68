import { describe, expect, it } from 'vitest';
import type { HealthcheckHarness } from './testing/harness.ts';
import { manager, testClock } from './testing/harness.ts';
import { useHealthcheckSuite } from './testing/suite.ts';
import type { HttpTarget } from './testing/targets.ts';

let h: HealthcheckHarness;
let target: HttpTarget;
const clock = testClock();

useHealthcheckSuite((suite) => ({ h, target } = suite), { now: clock.now });

const scheduler = () => h.healthcheck.scheduler();
const transitions = () => h.changes.map((change) => `${change.previous}->${change.current}`);

let pathCount = 0;
async function thresholdCheck(options: {
  failuresBeforeAlert?: number;
  recoveriesBeforeResolve?: number;
  retryIntervalSeconds?: number;
}) {
  const path = `/threshold-${(pathCount += 1)}`;
  target.respond(path, { status: 200 });
  const system = await h.createSystem();
  const check = await h.as(manager).createHealthCheck({
    systemId: system.id,
    name: path,
    type: 'healthcheck.http',
    config: { url: target.url(path) },
    intervalSeconds: 60,
    timeoutMs: 10_000,
    ...options,
  });
  return { system, check, path };
}

/** Runs the check by hand answering `status`, and waits for its events. */
async function runAnswering(check: { id: string }, path: string, status: number) {
  target.respond(path, { status });
  clock.advance(1_000);
  await h.as(manager).runHealthCheck({ id: check.id });
  await h.runtime.events.settled();
}

async function stored(check: { id: string; systemId: string }) {
  const page = await h.as(manager).getHealthChecks({ systemId: check.systemId });
  return page.healthChecks.find((row) => row.id === check.id)!;
}

describe('alert thresholds', () => {
  it('announces nothing when a check with failuresBeforeAlert 3 fails twice and recovers', async () => {
    const { check, path, system } = await thresholdCheck({ failuresBeforeAlert: 3 });
    await runAnswering(check, path, 200);
    h.changes.length = 0;
    await runAnswering(check, path, 500);
    await runAnswering(check, path, 500);

    const waiting = await h.as(manager).getSystemHealthStatus({ systemId: system.id });
    expect(waiting.status).toBe('healthy');
    expect(waiting.checks[0]).toMatchObject({
      alertStatus: 'pass',
      latest: { status: 'fail', pending: true },
    });
    await runAnswering(check, path, 200);

    expect(transitions()).toEqual([]);
    const history = await h.as(manager).getHistory({ healthCheckId: check.id });
    expect(history.results.map((result) => [result.status, result.pending])).toEqual([
      ['pass', false],
      ['fail', true],
      ['fail', true],
      ['pass', false],
    ]);
  });

  it('turns unhealthy on the third failure in a row, and back after two recoveries', async () => {
    const { check, path } = await thresholdCheck({
      failuresBeforeAlert: 3,
      recoveriesBeforeResolve: 2,
    });
    await runAnswering(check, path, 200);
    for (let run = 0; run < 3; run += 1) await runAnswering(check, path, 503);
    expect(transitions()).toEqual(['unknown->healthy', 'healthy->unhealthy']);
    await runAnswering(check, path, 200);
    expect(transitions()).toEqual(['unknown->healthy', 'healthy->unhealthy']);
    await runAnswering(check, path, 200);
    expect(transitions()).toEqual(['unknown->healthy', 'healthy->unhealthy', 'unhealthy->healthy']);
  });

  it('keeps the old behaviour by default: one failed run changes the status', async () => {
    const { check, path } = await thresholdCheck({});
    expect(check).toMatchObject({
      failuresBeforeAlert: 1,
      recoveriesBeforeResolve: 1,
      retryIntervalSeconds: null,
    });
    await runAnswering(check, path, 200);
    await runAnswering(check, path, 500);
    expect(transitions()).toEqual(['unknown->healthy', 'healthy->unhealthy']);
  });

  it('re-checks a pending check after its retry interval instead of its interval', async () => {
    const { check, path } = await thresholdCheck({
      failuresBeforeAlert: 2,
      retryIntervalSeconds: 5,
    });
    await scheduler().tick();
    await scheduler().idle();
    const first = await stored(check);
    expect(new Date(first.nextRunAt).getTime() - new Date(check.nextRunAt).getTime()).toBe(60_000);

    target.respond(path, { status: 500 });
    clock.advance(60_000);
    await scheduler().tick();
    await scheduler().idle();
    const pending = await stored(check);
    const [latest] = (await h.as(manager).getHistory({ healthCheckId: check.id })).results;
    expect(latest).toMatchObject({ status: 'fail', pending: true });
    expect(new Date(pending.nextRunAt).getTime() - new Date(latest!.checkedAt).getTime()).toBe(
      5_000,
    );
  });

  it('refuses a retry interval longer than the interval', async () => {
    await expect(thresholdCheck({ retryIntervalSeconds: 61 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
