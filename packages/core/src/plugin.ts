import type { AnyContractRouter } from '@orpc/contract';
import type { AnyRouter } from '@orpc/server';
import type { Database } from '@checkline/db';
import type { AccessRule } from './access-rules.ts';
import type { RequestContext } from './context.ts';
import type { EventBus } from './events.ts';
import type { PluginDirectory } from './plugin-directory.ts';
import type { ExtensionPoints } from './extension-point.ts';
import type { Logger } from './logger.ts';

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
  /**
   * A context for background work (schedulers, subscribers): the service principal on the root
   * database; `emit` publishes at once, so publish only after your own transaction commits.
   */
  serviceContext(): RequestContext;
}

export interface PluginDefinition<TContract extends AnyContractRouter, TRouter extends AnyRouter> {
  /** Lowercase id; the first segment of every path and access rule of the plugin. */
  id: string;
  contract: TContract;
  router: TRouter;
  accessRules: readonly AccessRule[];
  /** Folder of drizzle-kit's generated SQL for this plugin, if it has tables. */
  migrationsFolder?: string;
  /** Phase 1: provide extension points, register into other plugins' points. */
  register?(api: PluginRegisterApi): void;
  /** Phase 2: read what was registered, prepare background work. */
  init?(api: PluginInitApi): void | Promise<void>;
  /** Phase 3: everything is registered; start background work. */
  ready?(api: PluginInitApi): void | Promise<void>;
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
  return plugin;
}
