import { os } from '@orpc/server';
import type { RequestContext } from './context.ts';
import { assertSafeInput } from './input-guard.ts';
import type { ProcedureMeta } from './meta.ts';

/**
 * The input rules (docs/api.md, "Input rules"), first in front of every procedure on every surface (and of calls
 * between plugins): nothing the database cannot store reaches an access check or a handler.
 */
export const inputGuardMiddleware = os
  .$context<RequestContext>()
  .$meta<ProcedureMeta>({ kind: 'query', principals: [], access: [] })
  .middleware(async function guardInput({ next }, input) {
    assertSafeInput(input);
    return next();
  });
