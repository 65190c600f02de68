import { os } from '@orpc/server';
import { visibleAttached } from './attached-access.ts';
import { admitCaller, authorize } from './authorize.ts';
import type { RequestContext } from './context.ts';
import type { ProcedureMeta } from './meta.ts';

const base = os
  .$context<RequestContext>()
  .$meta<ProcedureMeta>({ kind: 'query', principals: [], access: [] });

/**
 * Runs before input validation: principal kind and the access rules that no team grant could
 * stand in for. A caller without access is refused whatever it sends.
 */
export const admissionMiddleware = base.middleware(function admitCallerFirst({
  context,
  procedure,
  next,
}) {
  admitCaller(procedure['~orpc'].meta, context.principal);
  return next();
});

/**
 * Runs after input validation, so a missing or malformed id is BAD_REQUEST: team access to the
 * addressed resource and to the resources the input names; list outputs are filtered to what the
 * caller may see. Every lookup reads through `context.db` (the batch's transaction inside one).
 */
export const accessMiddleware = base.middleware(async function enforceAccess(
  { context, procedure, next },
  input,
) {
  const meta = procedure['~orpc'].meta;
  const { filterList } = await authorize(meta, context, input);
  const result = await next();
  if (!filterList && !meta.attachedList) return result;
  let output = result.output as Record<string, unknown>;
  if (filterList) {
    const items = (output[filterList.field] ?? []) as { id: string }[];
    const visible = await context.resources.visible(
      context.db,
      context.principal,
      filterList.type,
      items.map((item) => item.id),
      'read',
      filterList.holdsGlobalRule,
    );
    output = { ...output, [filterList.field]: items.filter((item) => visible.has(item.id)) };
  }
  if (meta.attachedList && context.principal.kind !== 'service') {
    const { field } = meta.attachedList;
    if (field === undefined) {
      const [visible] = await visibleAttached(context, meta.attachedList, [output]);
      output = visible ?? output;
    } else {
      const items = (output[field] ?? []) as Record<string, unknown>[];
      output = { ...output, [field]: await visibleAttached(context, meta.attachedList, items) };
    }
  }
  return { ...result, output };
});
