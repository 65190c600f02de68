import type { AnyPlugin } from '@checkline/core';
import { mountedRoutes } from '@checkline/core';
import type { AnyContractProcedure, AnySchema } from '@orpc/contract';
import { getEventIteratorSchemaDetails } from '@orpc/contract';
import type { OpenAPI, SchemaConverterComponent } from '@orpc/openapi';
import { ZodToJsonSchemaConverter } from '@orpc/zod/zod4';
import { MAX_BATCH_KEYS } from './keyed-rpc.ts';
import { documentedContract } from './openapi-documented-contract.ts';
import { namedSchemasOf } from './openapi-components.ts';
import { otherErrorResponse } from './openapi-errors.ts';

type PathItems = Record<string, OpenAPI.PathItemObject>;

const converter = new ZodToJsonSchemaConverter();
const errorRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** Output schemas become `$ref`s to the named components, as in the REST operations. */
function outputComponents(plugins: readonly AnyPlugin[]) {
  const components: SchemaConverterComponent[] = [];
  for (const [id, schema] of namedSchemasOf(plugins)) {
    const [required] = converter.convert(schema as AnySchema, { strategy: 'output' });
    components.push({
      schema,
      required,
      ref: `#/components/schemas/${id}`,
      allowedStrategies: ['output'],
    });
  }
  return components;
}

/**
 * `POST /api/{pluginId}/`, one path per plugin (its body names procedures of that plugin). Named
 * without the trailing slash, which the server also accepts, as linters and client generators prefer.
 */
async function keyedPaths(plugins: readonly AnyPlugin[]): Promise<PathItems> {
  const components = outputComponents(plugins);
  const paths: PathItems = {};
  for (const plugin of plugins) {
    // A plugin without procedures (a notification channel) has nothing to call here.
    if (Object.keys(plugin.contract).length === 0) continue;
    const inputs: Record<string, unknown> = {};
    /** Procedures whose input may be `{}`: the example names the first of them. */
    const callableWithEmpty: string[] = [];
    const outputs: Record<string, unknown> = {};
    for (const [name, procedure] of Object.entries(documentedContract(plugin))) {
      const def = (procedure as AnyContractProcedure)['~orpc'];
      // A stream answers events over time, which one keyed JSON answer cannot hold.
      if (getEventIteratorSchemaDetails(def.outputSchema)) continue;
      inputs[name] = converter.convert(def.inputSchema, { strategy: 'input' })[1];
      const empty = await def.inputSchema?.['~standard'].validate({});
      if (!empty?.issues) callableWithEmpty.push(name);
      outputs[name] = converter.convert(def.outputSchema, { strategy: 'output', components })[1];
    }
    const [first] = callableWithEmpty;
    paths[`/api/${plugin.id}`] = {
      post: {
        operationId: `${plugin.id}.keyed`,
        tags: [plugin.id],
        summary: `Calls ${plugin.id} procedures by name; several keys are one batch.`,
        description: [
          "Each key of the body is a procedure of this plugin, its value that procedure's input (`{}` when none); the answer has the same keys in the same order, each holding that procedure's output.",
          '',
          'Each procedure needs what its REST operation needs (its `x-access-rules`). The path may end with a slash.',
          '',
          `Several keys are one batch (at most ${MAX_BATCH_KEYS}): all are authorised and validated before any runs, then they run in body order in one transaction; if one fails nothing is kept and the answer is its error, with \`procedure\` naming it. A repeated key is BAD_REQUEST.`,
          '',
          'With `Idempotency-Key`, each change of the body is kept under that key apart (per procedure): a retry of the same body answers every change from the first success.',
        ].join('\n'),
        'x-access-rules': [],
        parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                minProperties: 1,
                maxProperties: MAX_BATCH_KEYS,
                additionalProperties: false,
                properties: inputs,
              },
              ...(first && { example: { [first]: {} } }),
            },
          },
        },
        responses: {
          '200': {
            description: "Each key with its procedure's output, in body order.",
            headers: {
              'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' },
            },
            content: {
              'application/json': {
                schema: { type: 'object', additionalProperties: false, properties: outputs },
              },
            },
          },
          '400': errorRef('BadRequest'),
          '401': errorRef('Unauthorized'),
          '403': errorRef('Forbidden'),
          '404': errorRef('NotFound'),
          '409': errorRef('Conflict'),
          '413': errorRef('PayloadTooLarge'),
          '422': errorRef('UnprocessableContent'),
          '429': errorRef('TooManyRequests'),
          '500': errorRef('InternalServerError'),
          '503': errorRef('ServiceUnavailable'),
        },
      },
    } as OpenAPI.PathItemObject;
  }
  return paths;
}

/** The server's own probes (`health-routes.ts`). */
const healthPaths: PathItems = {
  '/healthz': {
    get: {
      operationId: 'server.healthz',
      tags: ['server'],
      summary: 'Answers while the process is up (liveness).',
      description: 'Needs no credentials and never touches the database.',
      security: [],
      responses: {
        '200': {
          description: 'The process is up.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['status'],
                properties: { status: { type: 'string', const: 'ok' } },
              },
              example: { status: 'ok' },
            },
          },
        },
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'server.readyz',
      tags: ['server'],
      summary: 'Answers while the database answers within 2 s (readiness).',
      description: 'Needs no credentials. 503 while the database does not answer within 2 s.',
      security: [],
      responses: {
        '200': {
          description: 'Ready to serve.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['status', 'database'],
                properties: {
                  status: { type: 'string', const: 'ready' },
                  database: { type: 'string', enum: ['pglite', 'postgres'] },
                },
              },
              example: { status: 'ready', database: 'pglite' },
            },
          },
        },
        '503': errorRef('ServiceUnavailable'),
      },
    },
  },
};

const bodyMethods = new Set(['post', 'put', 'patch', 'delete']);
const isSuccess = (status: string) => /^2\d\d$/.test(status);

/**
 * What the server around the raw routes and probes answers besides their own answers: 413 for a
 * body over 1 MiB under `/api`, and 404 for a host it does not serve (the probes are the
 * operations reached by other host names most: load balancers, orchestrators). A page whose
 * every outcome is a redirect lists other answers as errors (`default`).
 */
function withServerAnswers(paths: PathItems): PathItems {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(
      item as Record<string, OpenAPI.OperationObject>,
    )) {
      const responses = (operation.responses ??= {});
      if (path.startsWith('/api/') && bodyMethods.has(method)) {
        responses['413'] ??= errorRef('PayloadTooLarge');
      }
      responses['404'] ??= errorRef('HostNotServed');
      if (!Object.keys(responses).some(isSuccess)) responses.default ??= otherErrorResponse;
    }
  }
  return paths;
}

/** What lies outside the REST surface: keyed calls, the plugins' raw routes, health probes. */
export async function rawRoutePaths(plugins: readonly AnyPlugin[]): Promise<PathItems> {
  const pluginRoutes = mountedRoutes(plugins).map(
    (route) => (route.openapi?.() ?? {}) as PathItems,
  );
  // Routes of one path with different methods (GET and POST of a link) share its path item.
  const routePaths: PathItems = {};
  for (const items of pluginRoutes) {
    for (const [path, item] of Object.entries(items))
      routePaths[path] = { ...routePaths[path], ...item };
  }
  return Object.assign(
    {},
    await keyedPaths(plugins),
    withServerAnswers(routePaths),
    withServerAnswers(structuredClone(healthPaths)),
  );
}
