import type { AccessScope } from './attached-access.ts';
import { assertNamedResources, idsIn, restrictedToTeams } from './attached-access.ts';
import { appError, missingAccess, notFound, unauthorized } from './errors.ts';
import type { ProcedureMeta, ResourceRef } from './meta.ts';
import type { Principal } from './principal.ts';

export interface Authorization {
  /** Set for list procedures: the output array to filter to what the caller may see. */
  filterList?: { field: string; type: string; holdsGlobalRule: boolean };
}

function readResourceId(input: unknown, field: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[field];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function readField(input: unknown, field: string): unknown {
  return typeof input === 'object' && input !== null
    ? (input as Record<string, unknown>)[field]
    : undefined;
}

const firstMissingRule = (meta: ProcedureMeta, principal: Principal) =>
  meta.access.find((rule) => !principal.accessRules.includes(rule));

const refuse = (principal: Principal, rule: string) =>
  principal.kind === 'anonymous' ? unauthorized() : missingAccess(rule);

/**
 * What can be decided without the input: the principal kind, and the access rules unless a team
 * grant could stand in for them (a procedure of the resource's own plugin, a caller in a team).
 * Runs before input validation, so a caller without access learns nothing about valid inputs.
 */
export function admitCaller(meta: ProcedureMeta, principal: Principal): void {
  if (principal.kind === 'service') return;
  if (!meta.principals.includes(principal.kind)) {
    if (principal.kind === 'anonymous') throw unauthorized();
    throw appError('FORBIDDEN', `This procedure is not available to ${principal.kind} callers`);
  }
  const missing = firstMissingRule(meta, principal);
  const grantMayStandIn =
    (meta.resource !== undefined || meta.resourceList !== undefined) &&
    principal.teamIds.length > 0;
  if (missing && !grantMayStandIn) throw refuse(principal, missing);
}

/**
 * The plugin's own resource addressed by the call. A grant stands in for missing rules; a
 * team-only resource the caller may not reach answers as a missing one would (NOT_FOUND with the
 * rules, `Missing access` without), or FORBIDDEN for a change to one it may see.
 */
async function authorizeResource(
  scope: AccessScope,
  ref: ResourceRef,
  input: unknown,
  missing: string | undefined,
) {
  const { db, principal, resources } = scope;
  const id = readResourceId(input, ref.idField);
  if (id === undefined) {
    throw appError('FORBIDDEN', `Cannot tell which ${ref.type} this call addresses`);
  }
  const decision = await resources.decide(db, principal, ref.type, id, ref.level);
  if (decision === 'allow') return;
  if (missing) throw refuse(principal, missing);
  if (decision === 'global') return;
  const seen =
    ref.level === 'manage' &&
    (await resources.decide(db, principal, ref.type, id, 'read')) === 'allow';
  throw seen ? restrictedToTeams(ref.type) : notFound(ref.label ?? ref.type, id);
}

/**
 * Decides whether the caller of `scope` may call a procedure with `input` (already validated);
 * throws UNAUTHORIZED, FORBIDDEN or NOT_FOUND otherwise. Everything not explicitly allowed is
 * refused. Every lookup reads through `scope.db`, the call's database or transaction.
 */
export async function authorize(
  meta: ProcedureMeta,
  scope: AccessScope,
  input: unknown,
): Promise<Authorization> {
  const { principal } = scope;
  if (principal.kind === 'service') return {};
  admitCaller(meta, principal);
  const missing = firstMissingRule(meta, principal);

  if (meta.resource) await authorizeResource(scope, meta.resource, input, missing);
  else if (missing && !meta.resourceList) throw refuse(principal, missing);

  if (meta.attachedTo) {
    const { fields, level } = meta.attachedTo;
    const ids = fields.flatMap((field) => idsIn(readField(input, field)));
    await assertNamedResources(scope, meta.attachedTo, ids, level);
  }

  if (meta.resourceList) {
    const { field, type } = meta.resourceList;
    return { filterList: { field, type, holdsGlobalRule: missing === undefined } };
  }
  return {};
}
