import type { AnyPlugin, EventBusSettings, ResourceAccess } from '@checkline/core';
import { bootPlugins, createRuntime } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { createApp } from './http/app.ts';
import type { AppOptions, CheckLineApp } from './http/app.ts';

export interface StartOptions extends Omit<AppOptions, 'runtime'> {
  /** Team access to resources; the global rule decides everything without it. */
  resources?: ResourceAccess;
  /** The durable event dispatcher's timings (tests shorten them). */
  events?: EventBusSettings;
}

/** Applies every plugin's migrations, in plugin order. */
export async function migrateAll(database: DatabaseHandle, plugins: readonly AnyPlugin[]) {
  await database.migrate(
    plugins.flatMap((plugin) =>
      plugin.migrationsFolder ? [{ pluginId: plugin.id, folder: plugin.migrationsFolder }] : [],
    ),
  );
}

/**
 * Migrates, brings the plugins up (register, init, ready) and builds the HTTP app between init
 * and ready (the event dispatcher starts last). `stop` halts the plugins' background work and the
 * dispatcher, waiting for event subscribers; closing the database is the caller's.
 */
export async function startCheckline(options: StartOptions) {
  const { plugins, database, logger } = options;
  await migrateAll(database, plugins);
  const runtime = createRuntime(plugins, database.db, logger, options.resources, {
    events: options.events,
  });
  let checkline: CheckLineApp | undefined;
  const booted = await bootPlugins({
    plugins,
    runtime,
    db: database.db,
    logger,
    listen: database.listen,
    beforeReady: async (authentication) => {
      checkline = await createApp({
        ...options,
        runtime,
        resolvePrincipal: options.resolvePrincipal ?? authentication?.resolvePrincipal,
      });
    },
  });
  return { ...checkline!, ...booted, plugins, runtime };
}

export type Checkline = Awaited<ReturnType<typeof startCheckline>>;
