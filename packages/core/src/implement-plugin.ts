import { implement, os } from '@orpc/server';
import type { AnyContractRouter, ContractRouter } from '@orpc/contract';
import type { Router } from '@orpc/server';
import { accessMiddleware } from './access-middleware.ts';
import { inputGuardMiddleware } from './input-guard-middleware.ts';
import { transactionMiddleware } from './transaction-middleware.ts';
import type { RequestContext } from './context.ts';
import type { ProcedureMeta } from './meta.ts';

/** The starting point of every plugin router: the contract with our request context. */
export function implementPlugin<T extends AnyContractRouter>(contract: T) {
  return implement<T, RequestContext>(contract);
}

/**
 * Puts the input rules, then the access check, then the mutation transaction, in front of every procedure of a plugin
 * router. The server applies it to every mounted plugin, so no plugin can forget it.
 */
export function guardRouter<T extends Router<ContractRouter<ProcedureMeta>, RequestContext>>(
  router: T,
) {
  return os
    .$context<RequestContext>()
    .$meta<ProcedureMeta>({ kind: 'query', principals: [], access: [] })
    .use(inputGuardMiddleware)
    .use(accessMiddleware)
    .use(transactionMiddleware)
    .router(router);
}
