import { os } from '@orpc/server';
import type { Database } from '@checkline/db';
import type { RequestContext } from './context.ts';
import type { ProcedureMeta } from './meta.ts';

/** Runs every mutation in a database transaction, or in the batch's transaction when in one. */
export const transactionMiddleware = os
  .$context<RequestContext>()
  .$meta<ProcedureMeta>({ kind: 'query', principals: [], access: [] })
  .middleware(async function runMutationInTransaction({ context, procedure, next }) {
    if (procedure['~orpc'].meta.kind !== 'mutation' || context.inTransaction) return next();
    return context.db.transaction(async (tx) => {
      const db: Database = tx;
      return await next({ context: { db, inTransaction: true } });
    });
  });
