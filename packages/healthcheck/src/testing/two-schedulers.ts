import type { DatabaseHandle } from '@checkline/db';
import { connectPostgres } from '@checkline/db';
import { testDatabaseUrl } from '@checkline/db/testing';
import { afterAll, beforeAll } from 'vitest';
import type { HealthcheckHarness, HealthcheckHarnessOptions } from './harness.ts';
import { createHealthcheckTestDatabase, startHealthcheck } from './harness.ts';
import type { HttpTarget, HttpTargetOptions } from './targets.ts';
import { startHttpTarget } from './targets.ts';

export interface TwoSchedulers {
  database: DatabaseHandle;
  /** The first "process", on `database`. */
  first: HealthcheckHarness;
  /** The second, on a connection pool of its own on PostgreSQL (on PGlite the one handle). */
  other: HealthcheckHarness;
  target: HttpTarget;
}

/**
 * Two schedulers with `settings` on one test database, as two server processes have, and an
 * HTTP target for their checks: made before the file's tests and stopped after them.
 */
export function twoSchedulersPerFile(
  settings: HealthcheckHarnessOptions,
  targetOptions: HttpTargetOptions = {},
): TwoSchedulers {
  const world = {} as TwoSchedulers;
  let second: DatabaseHandle | undefined;
  beforeAll(async () => {
    world.database = await createHealthcheckTestDatabase();
    const url = testDatabaseUrl(world.database);
    second = url ? connectPostgres(url, { poolSize: 5 }) : world.database;
    world.first = await startHealthcheck(world.database.db, settings);
    world.other = await startHealthcheck(second.db, settings);
    world.target = await startHttpTarget(targetOptions);
  });
  afterAll(async () => {
    await world.first?.stop();
    await world.other?.stop();
    await world.target?.close();
    if (second && second !== world.database) await second.close();
    await world.database?.close();
  });
  return world;
}
