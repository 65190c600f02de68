import type { RequestContext } from './context.ts';
import { appError, notFound } from './errors.ts';
import type { AttachedListRef, ResourceAccessLevel, ResourceKind } from './meta.ts';

/**
 * One rule for everything attached to a resource of another plugin (docs/security.md; checks, windows,
 * incidents, groups attached to catalog systems). The procedure's own rules are checked first,
 * always; then a team-only resource hides what is attached to it from callers without a grant of
 * one of their teams at the needed level (read to see, manage to change).
 */
export type AccessScope = Pick<RequestContext, 'db' | 'principal' | 'resources'>;

/** The string ids held by `value`: one id, an array of ids, or none. */
export function idsIn(value: unknown): string[] {
  if (typeof value === 'string') return value.length > 0 ? [value] : [];
  if (Array.isArray(value)) return value.filter((id): id is string => typeof id === 'string');
  return [];
}

/**
 * Every team-only resource of `kind` the caller may not reach at `level` (none for the service
 * principal and admins): for plugins that filter a list in SQL, so pages and totals stay exact.
 */
export async function unreachableResources(
  scope: AccessScope,
  kind: ResourceKind,
  level: ResourceAccessLevel,
): Promise<ReadonlySet<string>> {
  if (scope.principal.kind === 'service') return new Set();
  return scope.resources.restricted(scope.db, scope.principal, kind.type, level);
}

/** The ones among `ids` the caller may not reach at `level`. */
async function restricted(
  scope: AccessScope,
  kind: ResourceKind,
  ids: readonly string[],
  level: ResourceAccessLevel,
): Promise<ReadonlySet<string>> {
  if (ids.length === 0) return new Set();
  const unreachable = await unreachableResources(scope, kind, level);
  return new Set(ids.filter((id) => unreachable.has(id)));
}

export const restrictedToTeams = (type: string) =>
  appError('FORBIDDEN', `This ${type} is restricted to its teams`);

const attachedToRestricted = (type: string) =>
  appError('FORBIDDEN', `This is attached to a ${type} restricted to its teams`);

/**
 * Resources named in a call's input: each one the caller may not see answers NOT_FOUND exactly as
 * a missing one would; at `manage`, one it sees but may not change answers FORBIDDEN.
 */
export async function assertNamedResources(
  scope: AccessScope,
  kind: ResourceKind,
  ids: readonly string[],
  level: ResourceAccessLevel,
): Promise<void> {
  const hidden = await restricted(scope, kind, ids, 'read');
  const unseen = ids.find((id) => hidden.has(id));
  if (unseen !== undefined) throw notFound(kind.label ?? kind.type, unseen);
  if (level === 'read') return;
  const locked = await restricted(scope, kind, ids, 'manage');
  if (ids.some((id) => locked.has(id))) throw restrictedToTeams(kind.type);
}

/**
 * For an object a plugin loaded by its own id, attached to `resourceIds`: throws `missing()`
 * (the plugin's own NOT_FOUND) when the caller may see none of them, and FORBIDDEN for a change
 * when any team-only one does not allow the caller's teams to manage it. An object attached to
 * nothing is governed by the procedure's rules alone.
 */
export async function assertAttachedReach(
  scope: AccessScope,
  kind: ResourceKind,
  resourceIds: readonly string[],
  level: ResourceAccessLevel,
  missing: () => Error,
): Promise<void> {
  if (resourceIds.length === 0) return;
  const hidden = await restricted(scope, kind, resourceIds, 'read');
  if (resourceIds.every((id) => hidden.has(id))) throw missing();
  if (level === 'read') return;
  const locked = await restricted(scope, kind, resourceIds, 'manage');
  if (resourceIds.some((id) => locked.has(id))) throw attachedToRestricted(kind.type);
}

/** Whether each item is attached to nothing or to at least one resource the caller may read. */
export async function attachedVisibility(
  scope: AccessScope,
  ref: AttachedListRef,
  items: readonly Record<string, unknown>[],
): Promise<boolean[]> {
  const hidden = await restricted(
    scope,
    ref,
    items.flatMap((item) => idsIn(item[ref.via])),
    'read',
  );
  return items.map((item) => {
    const ids = idsIn(item[ref.via]);
    return ids.length === 0 || ids.some((id) => !hidden.has(id));
  });
}

/**
 * The items of a list the caller may see: those attached to nothing or to at least one resource
 * it may read; the ids of resources it may not read are taken out of each item's `via` array.
 */
export async function visibleAttached<T extends Record<string, unknown>>(
  scope: AccessScope,
  ref: AttachedListRef,
  items: readonly T[],
): Promise<T[]> {
  const hidden = await restricted(
    scope,
    ref,
    items.flatMap((item) => idsIn(item[ref.via])),
    'read',
  );
  if (hidden.size === 0) return [...items];
  const visible: T[] = [];
  for (const item of items) {
    const ids = idsIn(item[ref.via]);
    if (ids.length > 0 && ids.every((id) => hidden.has(id))) continue;
    const attached = item[ref.via];
    visible.push(
      Array.isArray(attached) ? { ...item, [ref.via]: ids.filter((id) => !hidden.has(id)) } : item,
    );
  }
  return visible;
}
