import type { Database, DatabaseKind, DatabaseListen } from '@checkline/db';
import { ExtensionPoints } from './extension-point.ts';
import type { Logger } from './logger.ts';
import type { AnyPlugin, Authentication, PluginInitApi } from './plugin.ts';
import { orderPlugins } from './plugin-order.ts';
import { createRateLimitSweep } from './rate-limit-sweep.ts';
import type { Runtime } from './runtime.ts';

export interface BootOptions {
  plugins: readonly AnyPlugin[];
  runtime: Runtime;
  db: Database;
  logger: Logger;
  /** Handed to every plugin's init and ready (the server passes its database's). */
  listen?: DatabaseListen;
  /** Dependencies left out on purpose (a test harness mounting a plugin alone); never the server's. */
  absentDependencies?: readonly string[];
  /**
   * PostgreSQL, where several processes may share the database (and so caches and budgets must be
   * shared), or the embedded PGlite, one process. Unknown when absent (in-process harnesses).
   */
  databaseKind?: DatabaseKind;
  /** Runs between init and ready, once authentication is known (the server builds its app here). */
  beforeReady?: (authentication: Authentication | undefined) => void | Promise<void>;
}

/**
 * Drives the plugins through register, init and ready, in dependency order (`orderPlugins`), and installs the one
 * plugin authentication's team access into the runtime, then starts the event dispatcher. `stop`
 * halts the plugins in reverse order, then the dispatcher, waiting for subscribers running.
 */
export async function bootPlugins(options: BootOptions) {
  const { runtime, db, logger } = options;
  const plugins = orderPlugins(options.plugins, options.absentDependencies);
  const extensionPoints = new ExtensionPoints();
  for (const plugin of plugins) {
    plugin.register?.({ pluginId: plugin.id, extensionPoints, events: runtime.events });
  }
  extensionPoints.advance('init');
  const apis = new Map<AnyPlugin, PluginInitApi>(
    plugins.map((plugin) => [
      plugin,
      {
        pluginId: plugin.id,
        db,
        logger: logger.child({ plugin: plugin.id }),
        events: runtime.events,
        plugins: runtime.plugins,
        metrics: runtime.metrics,
        serviceContext: () => runtime.serviceContext(plugin.id),
        ...(options.listen && { listen: options.listen }),
        ...(options.databaseKind && { databaseKind: options.databaseKind }),
      },
    ]),
  );
  for (const plugin of plugins) await plugin.init?.(apis.get(plugin)!);

  const authenticators = plugins.flatMap((plugin) =>
    plugin.authentication ? [plugin.authentication()] : [],
  );
  if (authenticators.length > 1) throw new Error('More than one plugin authenticates callers');
  const authentication = authenticators[0];
  if (authentication) runtime.setResourceAccess(authentication.resources);
  await options.beforeReady?.(authentication);

  extensionPoints.advance('ready');
  for (const plugin of plugins) await plugin.ready?.(apis.get(plugin)!);
  // Every subscriber is registered now: events left behind by an earlier process can run.
  runtime.events.start();
  const rateLimitSweep = createRateLimitSweep(db, logger);
  rateLimitSweep.start();
  return {
    extensionPoints,
    authentication,
    /** Asks every plugin to end its long-lived responses (before the HTTP server drains). */
    drain() {
      for (const plugin of plugins) plugin.drain?.();
    },
    async stop() {
      for (const plugin of [...plugins].reverse()) await plugin.stop?.();
      await rateLimitSweep.stop();
      await runtime.events.stop();
    },
  };
}
