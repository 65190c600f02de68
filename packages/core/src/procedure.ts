import { ContractProcedure, oc } from '@orpc/contract';
import type { AnyContractProcedure, ErrorMap, HTTPMethod, Schema } from '@orpc/contract';
import type { AccessRule } from './access-rules.ts';
import { errorStatus, isErrorCode } from './errors.ts';
import type {
  AttachedListRef,
  ProcedureKind,
  ProcedureMeta,
  ResourceAccessLevel,
  ResourceKind,
} from './meta.ts';
import type { PrincipalKind } from './principal.ts';
import { principalKinds } from './principal.ts';
import { strictInput } from './strict-input.ts';

export interface ProcedureOptions {
  /** One line saying what the call does; the API reference's summary of the operation. */
  summary: string;
  /** Longer Markdown for the API reference, when one line is not enough. Default: none. */
  description?: string;
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
  return base.meta(meta).route({
    // A summary is plain text in OpenAPI: code spans keep their words, not their backticks.
    summary: options.summary.replaceAll('`', ''),
    ...(options.description && { description: options.description }),
  });
}

/** A read. Served as GET with its input in the query string (or POST when `bulk`). */
export const query = (options: ProcedureOptions) => procedure('query', options);

/** A change. Its REST method follows from its name (create/add, update, delete/remove). */
export const mutation = (options: ProcedureOptions) => procedure('mutation', options);

/** The REST method of a procedure, from its kind and name (docs/api.md). */
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

/** Error responses shared by every operation, declared once under `components.responses`. */
export const errorResponseNames = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  422: 'UnprocessableContent',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
} as const;

const errorResponse = (status: keyof typeof errorResponseNames) => ({
  $ref: `#/components/responses/${errorResponseNames[status]}`,
});

/** An API key or a session; procedures open to anonymous callers also take neither. */
const securityFor = (meta: ProcedureMeta): Record<string, string[]>[] => [
  { bearerAuth: [] },
  { sessionCookie: [] },
  ...(meta.access.length === 0 && meta.principals.includes('anonymous') ? [{}] : []),
];

/**
 * FORBIDDEN comes from a missing rule or team grant, from a caller of a kind the procedure does not
 * admit, and, for every change, from a session cookie sent without our Origin.
 */
function mayBeForbidden(meta: ProcedureMeta, method: HTTPMethod) {
  const guarded = meta.access.length > 0 || meta.resource !== undefined;
  const narrowed = principalKinds.some(
    (kind) => kind !== 'anonymous' && !meta.principals.includes(kind),
  );
  return guarded || narrowed || method !== 'GET';
}

const isDocumentedStatus = (status: number): status is keyof typeof errorResponseNames =>
  Object.hasOwn(errorResponseNames, status);

/** The statuses of the errors a contract declares with `.errors(raises(...))`. */
function declaredStatuses(name: string, errorMap: ErrorMap): Set<number> {
  const statuses = new Set<number>();
  for (const [code, item] of Object.entries(errorMap)) {
    const status = item?.status ?? (isErrorCode(code) ? errorStatus[code] : undefined);
    if (status === undefined || !isDocumentedStatus(status)) {
      throw new Error(`${name} declares ${code}, which is not an error of the wire contract`);
    }
    statuses.add(status);
  }
  return statuses;
}

/**
 * Every error the operation can answer. Some follow from the access metadata (UNAUTHORIZED,
 * FORBIDDEN, the NOT_FOUND of a resource id), some from the surface (invalid input, the wrong
 * method, a body too large, rate limits, a retry with its Idempotency-Key: 409 and 422 for
 * every change, failures and outages); the rest are the ones the contract declares.
 */
function errorResponsesFor(meta: ProcedureMeta, method: HTTPMethod, declared: Set<number>) {
  const mutation = meta.kind === 'mutation';
  const derived: Record<keyof typeof errorResponseNames, boolean> = {
    400: true,
    401: true,
    403: mayBeForbidden(meta, method),
    404: meta.resource !== undefined || meta.attachedTo !== undefined,
    405: true,
    409: mutation,
    413: method !== 'GET',
    422: mutation,
    429: true,
    500: true,
    503: true,
  };
  return Object.fromEntries(
    Object.keys(errorResponseNames)
      .map(Number)
      .filter(isDocumentedStatus)
      .filter((status) => derived[status] || declared.has(status))
      .map((status) => [String(status), errorResponse(status)]),
  );
}

/** A change's success says whether it was replayed from the first attempt of its key. */
function withReplayedHeader<R extends object>(responses: R): R {
  const ok = (responses as Record<string, { headers?: Record<string, unknown> }>)['200'];
  if (!ok) return responses;
  const headers = {
    ...ok.headers,
    'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' },
  };
  return { ...responses, '200': { ...ok, headers } };
}

const list = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** Who may call, in words, for the API reference (the same metadata the access checks read). */
export function describeAccess(meta: ProcedureMeta): string {
  const rules = meta.access.map((rule) => `\`${rule}\``);
  const sentences = [
    rules.length > 0
      ? `Needs the access rule${rules.length > 1 ? 's' : ''} ${list(rules)}.`
      : meta.principals.includes('anonymous')
        ? 'Open to every caller, signed in or not.'
        : 'Open to every signed-in caller.',
  ];
  if (!meta.principals.includes('anonymous') && meta.principals.length < 4) {
    sentences.push(`Only ${list(meta.principals.map((kind) => `${kind}s`))} may call it.`);
  }
  if (meta.resource) {
    sentences.push(
      `Addresses the \`${meta.resource.type}\` named by \`${meta.resource.idField}\`: team access to it applies (${meta.resource.level}).`,
    );
  }
  if (meta.attachedTo) {
    sentences.push(
      `The \`${meta.attachedTo.type}\` named by ${list(meta.attachedTo.fields.map((field) => `\`${field}\``))} must be visible to the caller (team access, ${meta.attachedTo.level}).`,
    );
  }
  if (meta.attachedList) {
    sentences.push(
      `Leaves out what is attached only to a \`${meta.attachedList.type}\` the caller may not see (team access).`,
    );
  }
  if (meta.resourceList) {
    sentences.push(
      `\`${meta.resourceList.field}\` leaves out each \`${meta.resourceList.type}\` the caller may not see (team access).`,
    );
  }
  return sentences.join(' ');
}

/**
 * A team grant stands in only for the rules of the plugin that owns the resource:
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

/** Which plugin each contract of `defineContract` belongs to (contracts are plain objects). */
const contractOwners = new WeakMap<object, string>();

/** The id of the plugin whose contract this is; throws for one not made by `defineContract`. */
export function pluginIdOfContract(contract: object): string {
  const pluginId = contractOwners.get(contract);
  if (pluginId === undefined) throw new Error('This contract was not made by defineContract');
  return pluginId;
}

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
    const method = restMethodFor(name, meta);
    const declared = declaredStatuses(`${pluginId}.${name}`, def.errorMap);
    contract[name] = new ContractProcedure({
      ...def,
      inputSchema: strictInput(def.inputSchema),
      route: {
        ...def.route,
        method,
        path: restPathFor(pluginId, name),
        operationId: `${pluginId}.${name}`,
        tags: [pluginId],
        spec: (operation) => ({
          ...operation,
          description: [def.route.description, describeAccess(meta)].filter(Boolean).join('\n\n'),
          security: securityFor(meta),
          ...(meta.kind === 'mutation' && {
            parameters: [
              ...(operation.parameters ?? []),
              { $ref: '#/components/parameters/IdempotencyKey' },
            ],
          }),
          responses: {
            ...(meta.kind === 'mutation'
              ? withReplayedHeader(operation.responses ?? {})
              : operation.responses),
            ...errorResponsesFor(meta, method, declared),
          },
          'x-access-rules': [...meta.access],
        }),
      },
    });
  }
  contractOwners.set(contract, pluginId);
  return contract as { [K in keyof T]: Finished<T[K]> };
}
