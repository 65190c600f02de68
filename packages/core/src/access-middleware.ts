import { os } from '@orpc/server';
import { attachedVisibility, visibleAttached } from './attached-access.ts';
import type { Authorization } from './authorize.ts';
import { admitCaller, authorize } from './authorize.ts';
import type { RequestContext } from './context.ts';
import type { ItemFilter } from './keyset-pages.ts';
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
 * Which items of a list procedure's output the caller may see (team access): the resources it
 * lists, and the objects attached to resources. None when nothing is filtered.
 */
function listFilterOf(
  meta: ProcedureMeta,
  context: RequestContext,
  filterList: Authorization['filterList'],
): ItemFilter | undefined {
  const attached = context.principal.kind === 'service' ? undefined : meta.attachedList;
  if (!filterList && !attached?.field) return undefined;
  return async function visibleItems(items) {
    let keep = items.map(() => true);
    if (filterList) {
      const visible = await context.resources.visible(
        context.db,
        context.principal,
        filterList.type,
        items.map((item) => item.id as string),
        'read',
        filterList.holdsGlobalRule,
      );
      keep = items.map((item) => visible.has(item.id as string));
    }
    if (attached) {
      const reachable = await attachedVisibility(context, attached, items);
      keep = keep.map((kept, i) => kept && reachable[i]!);
    }
    return keep;
  };
}

/**
 * Runs after input validation, so a missing or malformed id is BAD_REQUEST: team access to the
 * addressed resource and to the resources the input names; list outputs are filtered to what the
 * caller may see. A paged list reads through the same filter (`listFilter`), so its pages fill
 * with visible rows and its cursor comes from one. Every lookup reads through `context.db` (the
 * batch's transaction inside one).
 */
export const accessMiddleware = base.middleware(async function enforceAccess(
  { context, procedure, next },
  input,
) {
  const meta = procedure['~orpc'].meta;
  const { filterList } = await authorize(meta, context, input);
  const listFilter = listFilterOf(meta, context, filterList);
  const result = await next({ context: { listFilter } });
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
