import { implement, os, Procedure } from '@orpc/server';
import type { AnyContractRouter, ContractRouter } from '@orpc/contract';
import type { AnyProcedure, AnyRouter, Router } from '@orpc/server';
import { accessMiddleware, admissionMiddleware } from './access-middleware.ts';
import { inputGuardMiddleware } from './input-guard-middleware.ts';
import { idempotencyMiddleware } from './idempotency-middleware.ts';
import { transactionMiddleware } from './transaction-middleware.ts';
import type { RequestContext } from './context.ts';
import type { ProcedureMeta } from './meta.ts';

/** The starting point of every plugin router: the contract with our request context. */
export function implementPlugin<T extends AnyContractRouter>(contract: T) {
  return implement<T, RequestContext>(contract);
}

/** How many of `guardRouter`'s middlewares run before input validation: the input rules, admission. */
const GUARDS_BEFORE_VALIDATION = 2;

/**
 * oRPC validates input after every router-level middleware (and after a plugin's own `.use`
 * middlewares); the guard wants it right after admission, so that a missing or malformed id is
 * BAD_REQUEST before any resource is looked up, and a plugin's own middlewares see valid input.
 */
function validateAfterAdmission<T extends AnyRouter>(router: T): T {
  if (router instanceof Procedure) {
    const def = (router as AnyProcedure)['~orpc'];
    return new Procedure({
      ...def,
      inputValidationIndex: GUARDS_BEFORE_VALIDATION,
    }) as unknown as T;
  }
  return Object.fromEntries(
    Object.entries(router).map(([key, child]) => [key, validateAfterAdmission(child as AnyRouter)]),
  ) as T;
}

/**
 * Puts the input rules (no NUL, no lone surrogate, bounded depth and size), the admission check
 * (principal kind, rules), input validation, the access check (team access, list filtering) and
 * the mutation transaction and the Idempotency-Key check in front of every procedure of a plugin router. The server applies it to every mounted plugin, so no plugin can forget it.
 */
export function guardRouter<T extends Router<ContractRouter<ProcedureMeta>, RequestContext>>(
  router: T,
) {
  const guarded = os
    .$context<RequestContext>()
    .$meta<ProcedureMeta>({ kind: 'query', principals: [], access: [] })
    .use(inputGuardMiddleware)
    .use(admissionMiddleware)
    .use(accessMiddleware)
    .use(transactionMiddleware)
    .use(idempotencyMiddleware)
    .router(router);
  return validateAfterAdmission(guarded);
}
