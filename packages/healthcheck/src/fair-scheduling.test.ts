import type { Socket } from 'node:net';
import { createServer } from 'node:net';
import type { SQL } from 'drizzle-orm';
import { count, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@checkline/db';
import { results } from './db/schema.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import { admin, manager } from './testing/harness.ts';
import { useHealthcheckSuite } from './testing/suite.ts';
import type { HttpTarget } from './testing/targets.ts';

/*
 * Issue 19 item 11: one owner's checks against targets that never answer must not delay another
 * owner's check. Real time: the hung runs hold their slots for their whole timeout.
 */
/** Another principal than the manager (the test principals share one id). */
const otherOwner = { ...admin, id: '00000000-0000-4000-8000-0000000000b0' };

let database: DatabaseHandle;
let h: HealthcheckHarness;
let target: HttpTarget;

const concurrency = 32;
const maxPerHost = 4;
const maxPerOwner = 8;
useHealthcheckSuite((suite) => ({ database, h, target } = suite), {
  now: () => new Date(),
  scheduler: { concurrency, maxPerHost, maxPerOwner },
});

/** Listeners on 127.0.0.{2..} that accept every connection and never answer. */
const hung: { host: string; port: number; close: () => Promise<void> }[] = [];
const held: Socket[] = [];
beforeAll(async () => {
  for (let index = 0; index < 10; index++) {
    const server = createServer((socket) => void held.push(socket));
    const host = `127.0.0.${index + 2}`;
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as { port: number };
    hung.push({ host, port, close: () => new Promise((resolve) => server.close(() => resolve())) });
  }
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await Promise.all(hung.map((listener) => listener.close()));
});

const intervalSeconds = 30;
/** The hung runs hold their slots this long: what the other owner's check waited for before. */
const hungTimeoutMs = 20_000;
const hungChecks = 60;

/** Half on one hung host (its cap binds), half spread over nine more (the owner's cap binds). */
const hostOf = (index: number) => (index % 2 === 0 ? hung[0]! : hung[1 + (index % 9)]!);

async function resultCount(where: SQL): Promise<number> {
  const [row] = await database.db.select({ runs: count() }).from(results).where(where);
  return row!.runs;
}

describe('fair scheduling', () => {
  it(
    "one owner's checks against hung hosts do not delay another owner's check",
    { timeout: 120_000 },
    async () => {
      const systemA = await h.createSystem();
      for (let index = 0; index < hungChecks; index++) {
        const { host, port } = hostOf(index);
        await h.as(manager).createHealthCheck({
          systemId: systemA.id,
          name: `hung-${index}`,
          type: 'healthcheck.http',
          config: { url: `http://${host}:${port}/` },
          intervalSeconds,
          timeoutMs: hungTimeoutMs,
        });
      }
      const systemB = await h.createSystem();
      const checkB = await h.as(otherOwner).createHealthCheck({
        systemId: systemB.id,
        name: 'answers',
        type: 'healthcheck.http',
        config: { url: target.url('/ok') },
        intervalSeconds,
        timeoutMs: 5_000,
      });

      const scheduler = h.healthcheck.scheduler();
      scheduler.start();
      try {
        // Bounded: B's first run is due now; a full interval is the most it may wait.
        const deadline = Date.now() + intervalSeconds * 1_000 * 2;
        let answered = 0;
        while (answered === 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          answered = await resultCount(eq(results.healthCheckId, checkB.id));
        }
        expect(answered).toBeGreaterThan(0);
        // B ran while every hung run still held its slot: before, it waited for their timeouts.
        expect(await resultCount(ne(results.healthCheckId, checkB.id))).toBe(0);
      } finally {
        await scheduler.stop();
      }
    },
  );
});
