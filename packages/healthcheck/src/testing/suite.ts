import type { DatabaseHandle } from '@checkline/db';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { HealthcheckHarness, HealthcheckHarnessOptions } from './harness.ts';
import { createHealthcheckTestDatabase, startHealthcheck } from './harness.ts';
import type { HttpTarget } from './targets.ts';
import { startHttpTarget } from './targets.ts';

/** What a test file of the plugin works with: its database, the started plugin, a target. */
export interface HealthcheckSuite {
  database: DatabaseHandle;
  h: HealthcheckHarness;
  /** A loopback HTTP server for http checks to call. */
  target: HttpTarget;
}

/**
 * The usual lifecycle of a test file, as vitest hooks: before all, a fresh database, the plugin
 * started with `options` and a loopback HTTP target, handed to `bind`; `h.reset()` before each
 * test; all of it stopped after all. A file's own hooks registered after it run after it.
 */
export function useHealthcheckSuite(
  bind: (suite: HealthcheckSuite) => void,
  options: HealthcheckHarnessOptions = {},
): void {
  let suite: HealthcheckSuite;
  beforeAll(async () => {
    const database = await createHealthcheckTestDatabase();
    const h = await startHealthcheck(database.db, options);
    suite = { database, h, target: await startHttpTarget() };
    bind(suite);
  });
  afterAll(async () => {
    await suite.h.stop();
    await suite.target.close();
    await suite.database.close();
  });
  beforeEach(async () => {
    await suite.h.reset();
  });
}
