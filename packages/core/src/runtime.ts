import { randomUUID } from 'node:crypto';
import type { Database } from '@checkline/db';
import type { AnyRouter } from '@orpc/server';
import { createRouterClient } from '@orpc/server';
import type { RequestContext } from './context.ts';
import { CursorSeal } from './cursor-seal.ts';
import type { EventBusSettings } from './event-bus.ts';
import { EventBus } from './event-bus.ts';
import { guardRouter } from './implement-plugin.ts';
import type { Metrics } from './metrics.ts';
import { createMetrics } from './metrics.ts';
import { readOutboxOnScrape } from './outbox-metrics.ts';
import type { Logger } from './logger.ts';
import type { AnyPlugin } from './plugin.ts';
import type { PluginDirectory } from './plugin-directory.ts';
import type { Principal } from './principal.ts';
import { servicePrincipal } from './principal.ts';
import type { ResourceAccess } from './resource-access.ts';
import { globalRulesOnly } from './resource-access.ts';

/** Every plugin's router behind the access check, keyed by plugin id: what all surfaces serve. */
export function buildRouter(plugins: readonly AnyPlugin[]): Record<string, AnyRouter> {
  const router: Record<string, AnyRouter> = {};
  for (const plugin of plugins) {
    if (router[plugin.id]) throw new Error(`Plugin ${plugin.id} is listed twice`);
    router[plugin.id] = guardRouter(plugin.router as never) as AnyRouter;
  }
  return router;
}

/** What the plugins share at run time: the guarded router, the durable event bus, the directory. */
export interface Runtime {
  router: Record<string, AnyRouter>;
  events: EventBus;
  plugins: PluginDirectory;
  /** Seals every page cursor of this server. */
  cursors: CursorSeal;
  /** This process's metric families (`GET /metrics`); plugins record into them. */
  metrics: Metrics;
  /** Team access; delegates to what `setResourceAccess` installed (the auth plugin's). */
  resources: ResourceAccess;
  setResourceAccess(resources: ResourceAccess): void;
  /**
   * A fresh context outside any HTTP request (background work, tests): on the root database;
   * `emit` writes the event on it and `afterCommit` runs at once. Inside your own transaction use
   * `runInTransaction(context, ...)` (or `enqueueEvent(tx, ...)` and `events.dispatch`) instead.
   */
  contextFor(principal: Principal): RequestContext;
  /** `contextFor` the service principal. */
  serviceContext(pluginId: string): RequestContext;
}

export function createRuntime(
  plugins: readonly AnyPlugin[],
  db: Database,
  logger: Logger,
  initialResources: ResourceAccess = globalRulesOnly,
  options: { events?: EventBusSettings; cursors?: CursorSeal; metrics?: Metrics } = {},
): Runtime {
  const cursors = options.cursors ?? CursorSeal.ephemeral();
  let current = initialResources;
  const resources: ResourceAccess = {
    decide: (...args) => current.decide(...args),
    visible: (...args) => current.visible(...args),
    restricted: (...args) => current.restricted(...args),
  };
  const router = buildRouter(plugins);
  // Without the server's (which adds Node's own figures), a registry of this runtime's own.
  const metrics = options.metrics ?? createMetrics({ processMetrics: false });
  readOutboxOnScrape(metrics, db);
  const events = new EventBus({ db, logger, settings: options.events });
  const directory: PluginDirectory = {
    client(pluginId, _contract, caller) {
      const target = router[pluginId];
      if (!target) throw new Error(`No plugin ${pluginId} is mounted`);
      // The caller's list filter is about the caller's own list, never the one asked for here;
      // its Idempotency-Key is for the call it made, not for the calls that call makes.
      const { listFilter: _callerFilter, idempotency: _callerKey, ...rest } = caller;
      const context: RequestContext = { ...rest, principal: servicePrincipal(pluginId) };
      return createRouterClient(target, { context }) as never;
    },
  };
  return {
    router,
    events,
    cursors,
    metrics,
    plugins: directory,
    resources,
    setResourceAccess(next) {
      current = next;
    },
    serviceContext(pluginId) {
      return this.contextFor(servicePrincipal(pluginId));
    },
    contextFor(principal) {
      return {
        principal,
        db,
        requestId: randomUUID(),
        logger,
        resources,
        cursors,
        plugins: directory,
        afterCommit: (task) => void Promise.resolve().then(task),
        emit: (type, payload) => events.publish(type, payload),
        dispatchEvents: (ids) => events.dispatch(ids),
      };
    },
  };
}
