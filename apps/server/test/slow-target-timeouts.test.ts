import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAdminSession, clusterPerFile } from './support/cluster.ts';

/**
 * Issue 22 item 6: a check's timeout measures the target, not our queue. Two server processes on
 * one PostgreSQL database run 500 HTTP checks (every 10 s, timeout 5 s) against one loopback
 * origin. Each process may run as many checks of one host at once as CHECK_MAX_PER_HOST allows,
 * and keeps as many connections to the origin, so no run waits behind another: with answers
 * after 2 s none fails; with answers after 6 s every run fails with a timeout.
 */
const CHECKS = 500;
const INTERVAL_SECONDS = 10;

const shared = clusterPerFile({
  size: 2,
  // Sized to the checks of the one origin each process runs: 250 each.
  env: { CHECK_MAX_PER_HOST: '256' },
});
let sql: postgres.Sql;
let answerAfterMs = 2_000;
let inFlight = 0;
let mostInFlight = 0;
const sockets = new Set<Socket>();

const origin = createServer((request, response) => {
  request.resume();
  inFlight++;
  mostInFlight = Math.max(mostInFlight, inFlight);
  const timer = setTimeout(() => response.writeHead(200).end('ok'), answerAfterMs);
  response.on('close', () => {
    inFlight--;
    clearTimeout(timer);
  });
});
origin.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

beforeAll(async () => {
  sql = postgres(shared.database.url, { max: 2, onnotice: () => {} });
  origin.maxConnections = 2_000;
  await new Promise<void>((resolve) =>
    origin.listen({ port: 0, host: '127.0.0.1', backlog: 1_024 }, resolve),
  );
}, 180_000);
afterAll(async () => {
  await sql?.end({ timeout: 0 });
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
}, 60_000);

/** 500 checks of the origin, all due now, every 10 s, timeout 5 s. */
async function seedChecks(prefix: string) {
  const { port } = origin.address() as AddressInfo;
  await sql`
    insert into healthcheck.health_checks (system_id, name, type, config, interval_seconds,
      timeout_ms, next_run_at)
    select gen_random_uuid(), ${prefix} || i, 'healthcheck.http',
      jsonb_build_object('url', ${`http://127.0.0.1:${port}/`} || ${prefix} || i),
      ${INTERVAL_SECONDS}, 5000, now()
    from generate_series(1, ${CHECKS}) as i`;
}

const resultsOf = (prefix: string) => sql<
  { status: string; message: string; latencyMs: number; queueWaitMs: number | null }[]
>`
  select results.status, results.message, results.latency_ms as "latencyMs",
    results.queue_wait_ms as "queueWaitMs"
  from healthcheck.results
  join healthcheck.health_checks as checks on checks.id = results.health_check_id
  where checks.name like ${`${prefix}%`}`;

/**
 * No more runs of the checks named `prefix...`; then waits (bounded) until the runs of the first
 * interval at least are written (a loaded machine writes 500 results and statuses slowly).
 * The checks are locked in id order first, the order in which the servers' result writers lock
 * them: one update of 500 rows in table order, while a batch of results is being written, would
 * otherwise deadlock with it (PostgreSQL then aborts one of the two).
 */
async function stopRunning(prefix: string) {
  await sql.begin(async (tx) => {
    await tx`select id from healthcheck.health_checks where name like ${`${prefix}%`}
      order by id for no key update`;
    await tx`update healthcheck.health_checks set next_run_at = now() + interval '1 day'
      where name like ${`${prefix}%`}`;
  });
  const deadline = Date.now() + 60_000;
  while ((await resultsOf(prefix)).length < CHECKS && Date.now() < deadline) await pause(500);
  // Runs in flight end within their timeout.
  await pause(6_000);
}

/** Waits `ms`, the test's bound on each scenario. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('500 HTTP checks of one origin on two processes (timeout 5 s)', () => {
  it('answering in 2 s: no run fails, over two intervals', { timeout: 120_000 }, async () => {
    answerAfterMs = 2_000;
    await seedChecks('two-s-');
    await pause(2 * INTERVAL_SECONDS * 1_000);
    await stopRunning('two-s-');
    const results = await resultsOf('two-s-');

    // The first interval's runs at least, each answered.
    expect(results.length).toBeGreaterThanOrEqual(CHECKS);
    expect(results.filter((result) => result.status !== 'pass')).toEqual([]);
    // The wait for a connection slot is recorded apart from the latency (here: none to speak of).
    expect(results.every((result) => result.queueWaitMs !== null)).toBe(true);
    // Both processes sent their checks at once: the origin saw more than 2 × 32 together.
    expect(mostInFlight).toBeGreaterThan(64);
  });

  it('answering in 6 s: every run fails with a timeout', { timeout: 120_000 }, async () => {
    answerAfterMs = 6_000;
    await seedChecks('six-s-');
    await pause(INTERVAL_SECONDS * 1_000);
    await stopRunning('six-s-');
    const results = await resultsOf('six-s-');

    expect(results.length).toBeGreaterThanOrEqual(CHECKS);
    expect(
      results.filter(
        (result) => result.status !== 'fail' || result.message !== 'Timed out after 5000 ms',
      ),
    ).toEqual([]);
  });

  it('shows the wait for connection slots in the scheduler status', async () => {
    const session = await clusterAdminSession(shared.cluster);
    const response = await fetch(`${shared.cluster.url}/api/healthcheck/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...session },
      body: JSON.stringify({ getSchedulerStatus: { windowMinutes: 5 } }),
    });
    const { getSchedulerStatus } = (await response.json()) as Record<string, any>;
    expect(response.status).toBe(200);
    expect(getSchedulerStatus.queueWaitMs).toEqual({
      p50: expect.any(Number),
      p99: expect.any(Number),
    });
    expect(getSchedulerStatus.processes).toHaveLength(2);
    for (const process of getSchedulerStatus.processes) {
      expect(process.queueWaitMs.p50).toEqual(expect.any(Number));
    }
  });
});
