import { os } from '@orpc/server';
import type { Database } from '@checkline/db';
import type { RequestContext } from './context.ts';
import type { ProcedureMeta } from './meta.ts';

/**
 * Runs every mutation in a database transaction, or in the batch's transaction when in one.
 * Events and after-commit tasks raised inside are handed to the caller's context only once the
 * transaction has committed, and dropped if it rolls back.
 */
export const transactionMiddleware = os
  .$context<RequestContext>()
  .$meta<ProcedureMeta>({ kind: 'query', principals: [], access: [] })
  .middleware(async function runMutationInTransaction({ context, procedure, next }) {
    const meta = procedure['~orpc'].meta;
    if (meta.kind !== 'mutation' || meta.noTransaction || context.inTransaction) return next();
    const committed: (() => void)[] = [];
    const deferred: Pick<RequestContext, 'emit' | 'afterCommit'> = {
      emit: (type, payload) => void committed.push(() => context.emit(type, payload)),
      afterCommit: (task) => void committed.push(() => context.afterCommit(task)),
    };
    const result = await context.db.transaction(async (tx) => {
      const db: Database = tx;
      return await next({ context: { db, inTransaction: true, ...deferred } });
    });
    for (const handOver of committed) handOver();
    return result;
  });
