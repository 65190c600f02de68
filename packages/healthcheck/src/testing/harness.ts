import { catalogAccess, catalogContract, catalogPlugin } from '@checkline/catalog';
import type { AnyPlugin, Logger, ResourceAccess } from '@checkline/core';
import { startPluginHarness, testPrincipal } from '@checkline/core/testing';
import type { Database, PluginMigrations } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import {
  createMaintenancePlugin,
  maintenanceAccess,
  maintenancePlugin,
} from '@checkline/maintenance';
import { healthcheckAccess } from '../access.ts';
import { healthcheckContract } from '../contract.ts';
import { healthChecks, resultRollups, results, systemStatuses } from '../db/schema.ts';
import { healthStatusChanged } from '../events.ts';
import type { HealthcheckPluginOptions } from '../plugin.ts';
import { createHealthcheckPlugin, healthcheckPlugin } from '../plugin.ts';
import type { HealthStatusChange } from '../schemas.ts';

/** Every migration the healthcheck tests need, in server order. */
const testMigrations: PluginMigrations[] = [
  catalogPlugin,
  maintenancePlugin,
  healthcheckPlugin,
].map((plugin) => ({ pluginId: plugin.id, folder: plugin.migrationsFolder! }));

export const createHealthcheckTestDatabase = () => createTestDatabase(testMigrations);

export const admin = testPrincipal(
  [
    healthcheckAccess.read,
    healthcheckAccess.manage,
    catalogAccess.read,
    catalogAccess.manage,
    maintenanceAccess.read,
    maintenanceAccess.manage,
  ],
  { isAdmin: true },
);
export const manager = testPrincipal([healthcheckAccess.read, healthcheckAccess.manage]);
export const reader = testPrincipal([healthcheckAccess.read]);
export const nobody = testPrincipal([]);
export const anonymous = testPrincipal([], { kind: 'anonymous', id: null as never });

/** A clock tests move by hand. */
export function testClock(start = new Date('2030-01-01T00:00:00.000Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set(at: Date) {
      current = at.getTime();
    },
    advance(ms: number) {
      current += ms;
    },
  };
}

/** The harness's target policy: loopback allowed, as every test target listens there. */
export const loopbackAllowed = { allow: ['127.0.0.0/8', '::1'] };

export interface HealthcheckHarnessOptions extends HealthcheckPluginOptions {
  resources?: ResourceAccess;
  /** Where the plugins log (default silent). */
  logger?: Logger;
  /** Plugins mounted after healthcheck, e.g. one that registers check types. */
  extraPlugins?: readonly AnyPlugin[];
}

/**
 * Catalog, maintenance and a fresh healthcheck plugin started on `db`, with helpers: clients by
 * principal, a system factory and every status change published so far.
 */
export async function startHealthcheck(db: Database, options: HealthcheckHarnessOptions = {}) {
  const healthcheck = createHealthcheckPlugin({
    targets: loopbackAllowed,
    runRateLimit: false,
    ...options,
    scheduler: { autoStart: false, ...options.scheduler },
  });
  // Its ticker must not announce windows behind the tests' backs.
  const maintenance = createMaintenancePlugin({ tickIntervalMs: 3_600_000 });
  const plugins = [catalogPlugin, maintenance, healthcheck, ...(options.extraPlugins ?? [])];
  const started = await startPluginHarness(plugins, db, {
    resources: options.resources,
    logger: options.logger,
  });
  const changes: HealthStatusChange[] = [];
  started.runtime.events.subscribe(healthStatusChanged, (change) => void changes.push(change));
  let systemCount = 0;
  return {
    ...started,
    healthcheck,
    maintenance,
    /** Forgets every check, result, stored status and recorded change (between tests). */
    async reset() {
      // An event of the test before, still in the process's dispatch line, would land in the next
      // test's changes: let every one run first.
      await started.runtime.events.settled();
      await db.delete(results);
      await db.delete(resultRollups);
      await db.delete(healthChecks);
      await db.delete(systemStatuses);
      changes.length = 0;
    },
    /** Status changes published so far, in order. */
    changes,
    as: (principal: typeof admin) => started.client('healthcheck', healthcheckContract, principal),
    catalog: () => started.client('catalog', catalogContract, admin),
    async createSystem(
      name = `system-${(systemCount += 1)}-${Math.random().toString(36).slice(2)}`,
    ) {
      return started.client('catalog', catalogContract, admin).createSystem({ name });
    },
  };
}

export type HealthcheckHarness = Awaited<ReturnType<typeof startHealthcheck>>;

/**
 * A health check row written straight to the table, for tests that write results themselves:
 * a tcp check of the discard port, not due before `nextRunAt`.
 */
export const parkedCheckRow = (
  systemId: string,
  name: string,
  nextRunAt: Date,
  intervalSeconds = 60,
) => ({
  systemId,
  name,
  type: 'healthcheck.tcp',
  config: { host: '127.0.0.1', port: 9 },
  intervalSeconds,
  timeoutMs: 1_000,
  nextRunAt,
});
