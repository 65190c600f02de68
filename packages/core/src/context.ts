import type { AnyContractRouter } from '@orpc/contract';
import type { Database } from '@checkline/db';
import type { EventType } from './events.ts';
import type { Logger } from './logger.ts';
import type { PluginDirectory } from './plugin-directory.ts';
import type { Principal } from './principal.ts';
import type { ResourceAccess } from './resource-access.ts';

/** What every procedure handler receives, on every surface. */
export interface RequestContext {
  principal: Principal;
  /** The database, or the transaction of the batch this call runs in. */
  db: Database;
  requestId: string;
  logger: Logger;
  resources: ResourceAccess;
  /** Runs `task` once the call's (or batch's) transaction has committed; never after a rollback. */
  afterCommit(task: () => void | Promise<void>): void;
  /**
   * Publishes a domain event: written to the outbox with `db` (in the call's or batch's
   * transaction when there is one, so it exists exactly when the change does) and dispatched to
   * subscribers once that has committed.
   */
  emit<T>(type: EventType<T>, payload: T): void;
  /** Dispatches at once, in this process, outbox events whose rows have committed. */
  dispatchEvents(ids: readonly string[]): void;
  plugins: PluginDirectory;
  /** True when `db` is already a transaction (a keyed batch); mutations then join it. */
  inTransaction?: boolean;
}

/** A client of another plugin's contract, as the service principal, inside this call's transaction. */
export function pluginClient<T extends AnyContractRouter>(
  context: RequestContext,
  pluginId: string,
  contract: T,
) {
  return context.plugins.client(pluginId, contract, context);
}
