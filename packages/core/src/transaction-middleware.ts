import { os } from '@orpc/server';
import type { RequestContext } from './context.ts';
import type { ProcedureMeta } from './meta.ts';
import { runInTransaction } from './transaction-scope.ts';

/**
 * Runs every mutation in a database transaction, or in the batch's transaction when in one.
 * Events raised inside are written to the outbox in it and dispatched once it has committed;
 * after-commit tasks are handed to the caller's context then, and dropped if it rolls back.
 */
export const transactionMiddleware = os
  .$context<RequestContext>()
  .$meta<ProcedureMeta>({ kind: 'query', principals: [], access: [] })
  .middleware(async function runMutationInTransaction({ context, procedure, next }) {
    const meta = procedure['~orpc'].meta;
    if (meta.kind !== 'mutation' || meta.noTransaction || context.inTransaction) return next();
    return runInTransaction(context, async (inner) => await next({ context: inner }));
  });
