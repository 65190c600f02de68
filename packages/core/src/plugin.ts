import type { AnyContractRouter, AnySchema } from '@orpc/contract';
import type { AnyRouter } from '@orpc/server';
import type { Database, DatabaseKind, DatabaseListen } from '@checkline/db';
import type { AccessRule } from './access-rules.ts';
import type { RequestContext } from './context.ts';
import type { EventBus } from './event-bus.ts';
import type { PluginDirectory } from './plugin-directory.ts';
import type { Principal } from './principal.ts';
import type { ResourceAccess } from './resource-access.ts';
import type { ExtensionPoints } from './extension-point.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { routeDeclarationProblems } from './plugin-routes.ts';

export interface PluginRegisterApi {
  pluginId: string;
  extensionPoints: ExtensionPoints;
  events: EventBus;
}

export interface PluginInitApi {
  pluginId: string;
  db: Database;
  logger: Logger;
  events: EventBus;
  plugins: PluginDirectory;
  /** This process's metric families: record what the plugin's background work does. */
  metrics: Metrics;
  /**
   * A context for background work (schedulers, subscribers): the service principal on the root
   * database; its `emit` writes on the root database. For events of your own transaction use
   * `enqueueEvent(tx, ...)` and `events.dispatch(ids)` after commit.
   */
  serviceContext(): RequestContext;
  /**
   * LISTEN on a database channel: every process on the database hears a `pg_notify` once its
   * transaction commits. Absent when the host gives none (in-process test harnesses).
   */
  listen?: DatabaseListen;
  /**
   * `postgres` when several processes may share the database: counts that must hold across them
   * (rate limits) belong in it. Absent in in-process test harnesses.
   */
  databaseKind?: DatabaseKind;
}

/** A raw HTTP route of a plugin, outside the procedure surfaces (login forms, OAuth returns). */
export interface PluginRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * Hono syntax, relative to the plugin's prefix `/api/{routeSegment}`: the notification plugin's
   * `/oauth/:strategyId/auth` answers at `/api/notification/oauth/:strategyId/auth`.
   */
  path: string;
  handle(request: Request, params: Record<string, string>, meta: RouteMeta): Promise<Response>;
  /** Path parameters that are credentials (a heartbeat token): the access log shows `:name`. */
  secretParams?: readonly string[];
  /**
   * How the API reference describes this route: OpenAPI path items by concrete path, relative
   * like `path` (a route with parameters may stand for several). Asked once the plugins are
   * initialised.
   */
  openapi?(): Record<string, Record<string, unknown>>;
}

/** What a request to a claimed host may reach; everything else there answers 404. */
export interface HostClaim {
  /** A path of this server that `/` on the host redirects to (a path only, never a host). */
  home: string;
  /** Path prefixes served on the host as on the server's own (the UI's files are always served). */
  paths: readonly string[];
}

export interface RouteMeta {
  requestId: string;
  logger: Logger;
  /** The root database: a route runs outside any transaction (open your own). */
  db: Database;
  /** The caller's principal, resolved the same way as for procedures. */
  principal(): Promise<Principal>;
}

/** What the authenticating plugin (auth) gives every surface. */
export interface Authentication {
  /** Credentials to principal; throws UNAUTHORIZED for present but invalid credentials. */
  resolvePrincipal(request: Request): Promise<Principal>;
  resources: ResourceAccess;
}

export interface PluginDefinition<TContract extends AnyContractRouter, TRouter extends AnyRouter> {
  /** Lowercase id; the first segment of every path and access rule of the plugin. */
  id: string;
  /** What the plugin offers, in a sentence or two: the description of its tag in the API reference. */
  description: string;
  /**
   * Ids of the plugins this one needs at run time (calls their procedures, registers into their
   * extension points, reads their tables). The server starts and migrates them first, and refuses
   * to start when one is not mounted.
   */
  dependsOn?: readonly string[];
  contract: TContract;
  router: TRouter;
  accessRules: readonly AccessRule[];
  /** Folder of drizzle-kit's generated SQL for this plugin, if it has tables. */
  migrationsFolder?: string;
  /** Raw HTTP routes, mounted under `/api/{routeSegment}` before the procedure surfaces. */
  routes?: readonly PluginRoute[];
  /**
   * The path segment after `/api/` of the raw routes: the plugin's id, or a name starting with
   * `{id}-` (auth's `auth-backend`). No two plugins share one.
   */
  routeSegment?: string;
  /**
   * Host names the plugin serves besides the server's own (a status page's custom domain): what
   * a request for `host` (lowercase, no port) may reach, or undefined when the plugin does not
   * claim it. Asked for every request to a host that is not the server's own.
   */
  claimHost?(host: string): Promise<HostClaim | undefined>;
  /**
   * Input schemas the API reference shows instead of the contract's, by procedure name: for
   * inputs whose shape is only known once plugins have registered (each check type's config).
   * They describe, never replace, what the procedure validates. Asked once after init.
   */
  documentedInputs?(): Readonly<Record<string, AnySchema>>;
  /** Only the auth plugin: called after init; its answer authenticates every request. */
  authentication?(): Authentication;
  /** Phase 1: provide extension points, register into other plugins' points. */
  register?(api: PluginRegisterApi): void;
  /** Phase 2: read what was registered, prepare background work. */
  init?(api: PluginInitApi): void | Promise<void>;
  /** Phase 3: everything is registered; start background work. */
  ready?(api: PluginInitApi): void | Promise<void>;
  /**
   * Shutdown begins: end long-lived responses (event streams) so in-flight requests can drain.
   * Called before the HTTP server drains, while the plugin still works; `stop` follows.
   */
  drain?(): void;
  /** Stop background work; called on shutdown in reverse plugin order. */
  stop?(): void | Promise<void>;
}

export type AnyPlugin = PluginDefinition<AnyContractRouter, AnyRouter>;

/** Checks a plugin's definition once, at import time. */
export function definePlugin<TContract extends AnyContractRouter, TRouter extends AnyRouter>(
  plugin: PluginDefinition<TContract, TRouter>,
): PluginDefinition<TContract, TRouter> {
  if (!/^[a-z][a-z0-9-]*$/.test(plugin.id)) throw new Error(`Invalid plugin id "${plugin.id}"`);
  for (const rule of plugin.accessRules) {
    if (!rule.id.startsWith(`${plugin.id}.`)) {
      throw new Error(`Plugin ${plugin.id} declares foreign access rule ${rule.id}`);
    }
  }
  const problems = routeDeclarationProblems(plugin);
  if (problems.length > 0) throw new Error(`Plugin ${plugin.id}: ${problems.join('; ')}`);
  return plugin;
}
