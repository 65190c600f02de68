import { ContractProcedure, oc } from '@orpc/contract';
import type { AnyContractProcedure, ErrorMap, HTTPMethod, Schema } from '@orpc/contract';
import type { AccessRule } from './access-rules.ts';
import type {
  AttachedListRef,
  ProcedureKind,
  ProcedureMeta,
  ResourceAccessLevel,
  ResourceKind,
} from './meta.ts';
import type { PrincipalKind } from './principal.ts';
import { principalKinds } from './principal.ts';

export interface ProcedureOptions {
  /** Access rules required, in the order they are checked. */
  access?: readonly AccessRule[];
  /** Principal kinds allowed to call. Default: all. */
  principals?: readonly PrincipalKind[];
  /**
   * The resource of this plugin that the call addresses and the input field holding its id; a
   * team grant on it stands in for `access`. Default level: read for queries, manage for mutations.
   */
  resource?: ResourceKind & { idField: string; level?: ResourceAccessLevel };
  /** The output field listing this plugin's resources, filtered by team access. */
  resourceList?: { type: string; field: string };
  /**
   * Input fields naming resources (of another plugin) the call reads or attaches to: each
   * team-only one needs a grant of the caller's team (read for queries, manage for mutations).
   */
  attachedTo?: ResourceKind & { fields: readonly string[]; level?: ResourceAccessLevel };
  /** The output list of objects attached to resources, filtered to those the caller may see. */
  attachedList?: AttachedListRef;
  /** Serve this query as POST with a JSON body (its input may hold a large array). */
  bulk?: boolean;
  /** Mutations only: `false` when the call waits on the network and keeps its own transactions. */
  transaction?: boolean;
}

const base = oc.$meta<ProcedureMeta>({ kind: 'query', principals: principalKinds, access: [] });

function procedure(kind: ProcedureKind, options: ProcedureOptions) {
  const defaultLevel: ResourceAccessLevel = kind === 'query' ? 'read' : 'manage';
  const meta: ProcedureMeta = {
    kind,
    principals: options.principals ?? principalKinds,
    access: (options.access ?? []).map((rule) => rule.id),
    ...(options.resource && {
      resource: { ...options.resource, level: options.resource.level ?? defaultLevel },
    }),
    ...(options.resourceList && { resourceList: { ...options.resourceList, level: 'read' } }),
    ...(options.attachedTo && {
      attachedTo: { ...options.attachedTo, level: options.attachedTo.level ?? defaultLevel },
    }),
    ...(options.attachedList && { attachedList: options.attachedList }),
    ...(options.bulk && { bulk: true }),
    ...(options.transaction === false && { noTransaction: true }),
  };
  return base.meta(meta);
}

/** A read. Served as GET with its input in the query string (or POST when `bulk`). */
export const query = (options: ProcedureOptions = {}) => procedure('query', options);

/** A change. Its REST method follows from its name (create/add, update, delete/remove). */
export const mutation = (options: ProcedureOptions = {}) => procedure('mutation', options);

/** The REST method of a procedure, from its kind and name (API.md 1.3). */
export function restMethodFor(
  name: string,
  meta: Pick<ProcedureMeta, 'kind' | 'bulk'>,
): HTTPMethod {
  if (meta.kind === 'query') return meta.bulk || /^getBulk[A-Z]/.test(name) ? 'POST' : 'GET';
  if (/^(create|add)[A-Z]/.test(name)) return 'POST';
  if (/^update[A-Z]/.test(name)) return 'PATCH';
  if (/^(delete|remove)[A-Z]/.test(name)) return 'DELETE';
  return 'POST';
}

export const restPathFor = (pluginId: string, name: string) => `/rest/${pluginId}/${name}` as const;

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function errorResponsesFor(meta: ProcedureMeta) {
  const guarded = meta.access.length > 0 || meta.resource !== undefined;
  return {
    '400': errorResponse('Invalid input (BAD_REQUEST); `issues` lists each problem'),
    '401': errorResponse('Missing or invalid credentials (UNAUTHORIZED)'),
    ...(guarded && { '403': errorResponse('Missing access: <rule> (FORBIDDEN)') }),
    '404': errorResponse('Unknown procedure or resource (NOT_FOUND)'),
    ...(meta.kind === 'mutation' && { '409': errorResponse('Name taken or stale (CONFLICT)') }),
    '429': errorResponse('Rate limited (TOO_MANY_REQUESTS)'),
    '500': errorResponse('Unexpected failure (INTERNAL_SERVER_ERROR)'),
  };
}

/**
 * A team grant stands in only for the rules of the plugin that owns the resource (API.md 2):
 * another plugin's resources are named with `attachedTo` / `attachedList`, never `resource`.
 */
function assertOwnResources(pluginId: string, name: string, meta: ProcedureMeta) {
  for (const ref of [meta.resource, meta.resourceList]) {
    if (ref && !ref.type.startsWith(`${pluginId}.`)) {
      throw new Error(
        `${pluginId}.${name}: ${ref.type} belongs to another plugin; name it with attachedTo or attachedList`,
      );
    }
  }
}

type Finished<T> =
  T extends ContractProcedure<
    infer I extends Schema<unknown, unknown>,
    infer O extends Schema<unknown, unknown>,
    infer E extends ErrorMap,
    infer M extends ProcedureMeta
  >
    ? ContractProcedure<I, O, E, M>
    : never;

/**
 * A plugin's contract: gives each procedure its REST method and path, its operationId
 * `{pluginId}.{name}`, its tag, and its OpenAPI security, error responses and `x-access-rules`.
 */
export function defineContract<const T extends Record<string, AnyContractProcedure>>(
  pluginId: string,
  procedures: T,
): { [K in keyof T]: Finished<T[K]> } {
  const contract: Record<string, AnyContractProcedure> = {};
  for (const [name, proc] of Object.entries(procedures)) {
    const def = proc['~orpc'];
    const meta = def.meta as ProcedureMeta;
    assertOwnResources(pluginId, name, meta);
    contract[name] = new ContractProcedure({
      ...def,
      route: {
        ...def.route,
        method: restMethodFor(name, meta),
        path: restPathFor(pluginId, name),
        operationId: `${pluginId}.${name}`,
        tags: [pluginId],
        spec: (operation) => ({
          ...operation,
          security: [{ bearerAuth: [] }],
          responses: { ...operation.responses, ...errorResponsesFor(meta) },
          'x-access-rules': [...meta.access],
        }),
      },
    });
  }
  return contract as { [K in keyof T]: Finished<T[K]> };
}
