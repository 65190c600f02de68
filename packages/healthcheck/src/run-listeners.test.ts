import type { DatabaseHandle } from '@checkline/db';
import { inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { healthChecks } from './db/schema.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import { manager, testClock } from './testing/harness.ts';
import { useHealthcheckSuite } from './testing/suite.ts';
import type { HttpTarget } from './testing/targets.ts';

/*
 * Every run in flight listens to the scheduler's shutdown signal, and listens once more while it
 * waits for a connection slot to its origin. A scheduler whose every slot waits so must not
 * warn of a listener leak (the bench's servers did, at 267 listeners against a limit of 266).
 */
const CONCURRENCY = 12;
let database: DatabaseHandle;
let h: HealthcheckHarness;
let target: HttpTarget;
const clock = testClock();

useHealthcheckSuite((suite) => ({ database, h, target } = suite), {
  now: clock.now,
  scheduler: { concurrency: CONCURRENCY, maxPerHost: CONCURRENCY, leaseMarginMs: 60_000 },
});

async function checksOn(path: string) {
  const ids = [];
  for (let i = 0; i < CONCURRENCY; i += 1) {
    const system = await h.createSystem();
    const check = await h.as(manager).createHealthCheck({
      systemId: system.id,
      name: `${path}-${i}`,
      type: 'healthcheck.http',
      config: { url: target.url(path) },
      intervalSeconds: 3_600,
      timeoutMs: 10_000,
    });
    ids.push(check.id);
  }
  return ids;
}

describe('the scheduler’s shutdown signal', () => {
  it('takes a listener per run and one more per run waiting for a connection slot, without a leak warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      target.respond('/hold', { status: 200, delayMs: 1_500 });
      const holds = await checksOn('/hold');
      // Not scheduled: manual runs hold every connection slot to the origin.
      await database.db
        .update(healthChecks)
        .set({ nextRunAt: new Date(clock.now().getTime() + 3_600_000) })
        .where(inArray(healthChecks.id, holds));
      const held = holds.map((id) => h.as(manager).runHealthCheck({ id }));
      await vi.waitFor(() => expect(target.hits('/hold')).toBe(CONCURRENCY), { timeout: 5_000 });

      await checksOn('/waits');
      expect(await h.healthcheck.scheduler().tick()).toBe(CONCURRENCY);
      await Promise.all(held);
      await h.healthcheck.scheduler().idle();
      expect(target.hits('/waits')).toBe(CONCURRENCY);
      // Warnings are emitted on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
