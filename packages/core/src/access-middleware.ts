import { os } from '@orpc/server';
import { authorize } from './authorize.ts';
import type { RequestContext } from './context.ts';
import type { ProcedureMeta } from './meta.ts';

/**
 * The one access check of every procedure on every surface: principal kind, access rules and
 * team access to the addressed resource; list outputs are filtered to what the caller may see.
 */
export const accessMiddleware = os
  .$context<RequestContext>()
  .$meta<ProcedureMeta>({ kind: 'query', principals: [], access: [] })
  .middleware(async function enforceAccess({ context, procedure, next }, input) {
    const meta = procedure['~orpc'].meta;
    const { filterList } = await authorize(meta, context.principal, input, context.resources);
    const result = await next();
    if (!filterList) return result;
    const output = result.output as Record<string, { id: string }[]>;
    const items = output[filterList.field] ?? [];
    const visible = await context.resources.visible(
      context.principal,
      filterList.type,
      items.map((item) => item.id),
      'read',
      filterList.holdsGlobalRule,
    );
    return {
      ...result,
      output: { ...output, [filterList.field]: items.filter((item) => visible.has(item.id)) },
    };
  });
