import type { AnyContractRouter, ContractRouterClient } from '@orpc/contract';
import type { RequestContext } from './context.ts';

/**
 * How one plugin calls another: through the other's contract, as the service principal, within
 * the caller's context (its transaction, so a batch sees its own uncommitted rows, and its
 * after-commit queue).
 */
export interface PluginDirectory {
  client<T extends AnyContractRouter>(
    pluginId: string,
    contract: T,
    caller: RequestContext,
  ): ContractRouterClient<T>;
}
