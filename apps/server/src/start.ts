import type { AnyPlugin, PluginInitApi, ResourceAccess } from '@checkline/core';
import { createRuntime, ExtensionPoints } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { createApp } from './http/app.ts';
import type { AppOptions } from './http/app.ts';

export interface StartOptions extends Omit<AppOptions, 'runtime'> {
  /** Team access to resources; the global rule decides everything without it. */
  resources?: ResourceAccess;
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
 * Brings the plugins up (migrate, register, init, ready) and builds the HTTP app. `stop` halts
 * the plugins' background work and waits for event subscribers; closing the database is the
 * caller's.
 */
export async function startCheckline(options: StartOptions) {
  const { plugins, database, logger } = options;
  await migrateAll(database, plugins);
  const runtime = createRuntime(plugins, database.db, logger, options.resources);
  const extensionPoints = new ExtensionPoints();
  for (const plugin of plugins) {
    plugin.register?.({ pluginId: plugin.id, extensionPoints, events: runtime.events });
  }
  extensionPoints.advance('init');
  const apiFor = (plugin: AnyPlugin): PluginInitApi => ({
    pluginId: plugin.id,
    db: database.db,
    logger: logger.child({ plugin: plugin.id }),
    events: runtime.events,
    plugins: runtime.plugins,
    serviceContext: () => runtime.serviceContext(plugin.id),
  });
  for (const plugin of plugins) await plugin.init?.(apiFor(plugin));
  const authenticators = plugins.flatMap((plugin) =>
    plugin.authentication ? [plugin.authentication()] : [],
  );
  if (authenticators.length > 1) throw new Error('More than one plugin authenticates callers');
  const authentication = authenticators[0];
  if (authentication) runtime.setResourceAccess(authentication.resources);
  const checkline = await createApp({
    ...options,
    runtime,
    resolvePrincipal: options.resolvePrincipal ?? authentication?.resolvePrincipal,
  });
  extensionPoints.advance('ready');
  for (const plugin of plugins) await plugin.ready?.(apiFor(plugin));
  return {
    ...checkline,
    plugins,
    runtime,
    extensionPoints,
    async stop() {
      for (const plugin of [...plugins].reverse()) await plugin.stop?.();
      await runtime.events.settled();
    },
  };
}

export type Checkline = Awaited<ReturnType<typeof startCheckline>>;
