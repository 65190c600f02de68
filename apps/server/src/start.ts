import type { AnyPlugin, CursorSeal, EventBusSettings, ResourceAccess } from '@checkline/core';
import { bootPlugins, createMetrics, createRuntime, orderPlugins } from '@checkline/core';
import type { Metrics } from '@checkline/core';
import type { DatabaseHandle, PluginMigrations } from '@checkline/db';
import { createApp } from './http/app.ts';
import type { AppOptions, CheckLineApp } from './http/app.ts';

export interface StartOptions extends Omit<AppOptions, 'runtime'> {
  /** Team access to resources; the global rule decides everything without it. */
  resources?: ResourceAccess;
  /** The durable event dispatcher's timings (tests shorten them). */
  events?: EventBusSettings;
  /** Seals page cursors; a random key for the process without it (tests). */
  cursors?: CursorSeal;
  /** The process's metric families; a fresh registry (with Node's own figures) without it. */
  metrics?: Metrics;
}

/** The pool's figures at each scrape; the cumulative waits are raised to the handle's totals. */
function readPoolOnScrape(metrics: Metrics, database: DatabaseHandle) {
  const { pool } = database;
  if (!pool) return;
  metrics.readOnScrape('db_pool', async () => {
    const stats = pool();
    metrics.dbPoolSize.set(stats.size);
    metrics.dbPoolInUse.set(Math.min(stats.inFlight, stats.size));
    metrics.dbPoolWaiting.set(Math.max(0, stats.inFlight - stats.size));
    const [acquires] = (await metrics.dbPoolAcquires.get()).values;
    const [seconds] = (await metrics.dbPoolAcquireSeconds.get()).values;
    metrics.dbPoolAcquires.inc(Math.max(0, stats.acquires - (acquires?.value ?? 0)));
    metrics.dbPoolAcquireSeconds.inc(Math.max(0, stats.acquireSeconds - (seconds?.value ?? 0)));
  });
}

/** Every plugin's migrations, in dependency order (`orderPlugins`). */
export function migrationsOf(plugins: readonly AnyPlugin[]): PluginMigrations[] {
  return orderPlugins(plugins).flatMap((plugin) =>
    plugin.migrationsFolder ? [{ pluginId: plugin.id, folder: plugin.migrationsFolder }] : [],
  );
}

/** Applies every plugin's migrations, in dependency order. */
export async function migrateAll(database: DatabaseHandle, plugins: readonly AnyPlugin[]) {
  await database.migrate(migrationsOf(plugins));
}

/**
 * Orders the plugins by their dependencies, migrates, brings the plugins up (register, init, ready) and builds the HTTP app between init
 * and ready (the event dispatcher starts last). `stop` halts the plugins' background work and the
 * dispatcher, waiting for event subscribers; closing the database is the caller's.
 */
export async function startCheckline(options: StartOptions) {
  const { database, logger } = options;
  // Dependencies first, for migrations (foreign keys) as for start-up; a missing one fails here.
  const plugins = orderPlugins(options.plugins);
  await migrateAll(database, plugins);
  const metrics = options.metrics ?? createMetrics();
  metrics.useLogger(logger);
  readPoolOnScrape(metrics, database);
  const runtime = createRuntime(plugins, database.db, logger, options.resources, {
    events: options.events,
    cursors: options.cursors,
    metrics,
  });
  let checkline: CheckLineApp | undefined;
  const booted = await bootPlugins({
    plugins,
    runtime,
    db: database.db,
    logger,
    listen: database.listen,
    databaseKind: database.kind,
    beforeReady: async (authentication) => {
      checkline = await createApp({
        ...options,
        plugins,
        runtime,
        resolvePrincipal: options.resolvePrincipal ?? authentication?.resolvePrincipal,
      });
    },
  });
  return { ...checkline!, ...booted, plugins, runtime };
}
