import type { AnyContractRouter } from '@orpc/contract';
import type { Database } from '@checkline/db';
import type { CursorSeal } from './cursor-seal.ts';
import type { EventType } from './events.ts';
import type { IdempotencyRequest } from './idempotency-key.ts';
import type { ItemFilter, PageScope } from './keyset-pages.ts';
import { callerOfPrincipal } from './keyset-pages.ts';
import type { Logger } from './logger.ts';
import type { PluginDirectory } from './plugin-directory.ts';
import type { Principal } from './principal.ts';
import { pluginIdOfContract } from './procedure.ts';
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
  /** Seals page cursors under the server's key; read lists through {@link pageScope}. */
  cursors: CursorSeal;
  /**
   * Set by the access middleware for a list procedure whose items team access filters: which
   * items the caller may see. Never handed on to another plugin's client.
   */
  listFilter?: ItemFilter;
  /**
   * The request's `Idempotency-Key`, for the mutations it calls directly; never handed on to
   * another plugin's client.
   */
  idempotency?: IdempotencyRequest;
}

/** The paging scope of this call: cursors bound to the caller, rows filtered to what it may see. */
export function pageScope(
  context: Pick<RequestContext, 'cursors' | 'principal' | 'listFilter'>,
): PageScope {
  return {
    cursors: context.cursors,
    caller: callerOfPrincipal(context.principal),
    keep: context.listFilter,
  };
}

/**
 * A client of another plugin's contract, as the service principal, inside this call's
 * transaction; the contract names its plugin (`defineContract`).
 */
export function pluginClient<T extends AnyContractRouter>(context: RequestContext, contract: T) {
  return context.plugins.client(pluginIdOfContract(contract), contract, context);
}
