import { appError, missingAccess, unauthorized } from './errors.ts';
import type { ProcedureMeta } from './meta.ts';
import type { Principal } from './principal.ts';
import type { ResourceAccess } from './resource-access.ts';

export interface Authorization {
  /** Set for list procedures: the output array to filter to what the caller may see. */
  filterList?: { field: string; type: string; holdsGlobalRule: boolean };
}

function readResourceId(input: unknown, field: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[field];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Decides whether `principal` may call a procedure with `input`; throws UNAUTHORIZED or FORBIDDEN
 * otherwise. Everything not explicitly allowed is refused.
 */
export async function authorize(
  meta: ProcedureMeta,
  principal: Principal,
  input: unknown,
  resources: ResourceAccess,
): Promise<Authorization> {
  if (principal.kind === 'service') return {};
  if (!meta.principals.includes(principal.kind)) {
    if (principal.kind === 'anonymous') throw unauthorized();
    throw appError('FORBIDDEN', `This procedure is not available to ${principal.kind} callers`);
  }
  const missing = meta.access.find((rule) => !principal.accessRules.includes(rule));
  const refuse = (rule: string) =>
    principal.kind === 'anonymous' ? unauthorized() : missingAccess(rule);

  if (meta.resource) {
    const id = readResourceId(input, meta.resource.idField);
    if (id === undefined) {
      throw appError('FORBIDDEN', `Cannot tell which ${meta.resource.type} this call addresses`);
    }
    const decision = await resources.decide(principal, meta.resource.type, id, meta.resource.level);
    if (decision === 'allow') return {};
    if (decision === 'deny') {
      throw missing
        ? refuse(missing)
        : appError('FORBIDDEN', `This ${meta.resource.type} is restricted to its teams`);
    }
    if (missing) throw refuse(missing);
    return {};
  }

  if (meta.resourceList) {
    if (missing && principal.teamIds.length === 0) throw refuse(missing);
    const { field, type } = meta.resourceList;
    return { filterList: { field, type, holdsGlobalRule: missing === undefined } };
  }

  if (missing) throw refuse(missing);
  return {};
}
