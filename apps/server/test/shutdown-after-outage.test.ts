import { randomBytes } from 'node:crypto';
import type { ThrowawayPostgres } from '@checkline/db/testing';
import { freeLoopbackPort, startThrowawayPostgres } from '@checkline/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from './support/server-process.ts';
import { startServerProcess } from './support/server-process.ts';

/*
 * Issue 19 item 13: once the database has been away, SIGTERM of an idle server waited for the
 * driver to give up on its dead connections. The server here runs against a cluster of this
 * test's own; it must stop cleanly, on its own, after the database came back. (How long that
 * takes is printed, not asserted: timings belong to the benchmarks.)
 */
let cluster: ThrowawayPostgres;
const started: ServerProcess[] = [];

beforeAll(async () => {
  cluster = await startThrowawayPostgres();
});
afterAll(async () => {
  await Promise.all(started.map((server) => server.dispose()));
  await cluster?.destroy();
});

async function startServer() {
  const port = await freeLoopbackPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServerProcess({
    PORT: String(port),
    BASE_URL: baseUrl,
    DATABASE_URL: cluster.url,
    DATABASE_POOL_SIZE: '4',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  started.push(server);
  await server.waitForLog((line) => line.msg === 'listening', 60_000);
  return { server, baseUrl };
}

/** `/readyz`'s status; if the server cannot be reached, the error carries how it ended. */
async function readiness(baseUrl: string, server?: ServerProcess) {
  try {
    return (await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(10_000) })).status;
  } catch (error) {
    if (!server) throw error;
    const tail = server.rawLines.slice(-15).join('\n');
    throw new Error(`/readyz unreachable (alive: ${server.alive()}): ${server.stderr()}\n${tail}`, {
      cause: error,
    });
  }
}

/** Sends SIGTERM and expects a clean exit; prints how long it took. */
async function stopCleanly(server: ServerProcess, label: string) {
  const signalled = performance.now();
  server.signal('SIGTERM');
  const exit = await server.exitWithin(30_000);
  expect(exit).toEqual({ code: 0, signal: null });
  console.info(`${label}: stopped in ${Math.round(performance.now() - signalled)} ms`);
}

describe('stopping after a database outage', () => {
  it('exits cleanly on SIGTERM, as a server that saw none does', async () => {
    const baseline = await startServer();
    expect(await readiness(baseline.baseUrl)).toBe(200);
    await stopCleanly(baseline.server, 'no outage');

    const outage = await startServer();
    expect(await readiness(outage.baseUrl, outage.server)).toBe(200);
    await cluster.stop();
    expect(await readiness(outage.baseUrl, outage.server)).toBe(503);
    await cluster.start();
    const deadline = Date.now() + 30_000;
    while ((await readiness(outage.baseUrl, outage.server)) !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await readiness(outage.baseUrl, outage.server)).toBe(200);
    await stopCleanly(outage.server, 'after an outage');
  }, 180_000);
});
