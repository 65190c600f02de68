import type { AnyPlugin } from '@checkline/core';
import { OpenAPIGenerator } from '@orpc/openapi';
import type { OpenAPI } from '@orpc/openapi';
import { ZodToJsonSchemaConverter } from '@orpc/zod/zod4';
import { useFormStyleForQueryArrays } from './openapi-arrays.ts';
import { documentedContract, markDiscriminatedInputs } from './openapi-documented-contract.ts';
import { namedSchemasOf } from './openapi-components.ts';
import {
  errorResponses,
  errorSchema,
  hostNotServedResponse,
  idempotencyKeyParameter,
  idempotentReplayedHeader,
  retryAfterHeader,
} from './openapi-errors.ts';
import { describeEventStreams } from './openapi-streams.ts';
import { addRequestExamples } from './openapi-examples.ts';
import { rawRoutePaths } from './openapi-raw-routes.ts';
import { webhookDocumentation } from './openapi-webhooks.ts';
import { LICENCE_PATH } from './docs-routes.ts';
import { withoutQueryFlags, withoutSafeIntegerBounds } from './openapi-tidy.ts';

export const schemaConverters = [new ZodToJsonSchemaConverter()];

/** The server the committed document names (`BASE_URL` when unset). */
export const defaultBaseUrl = 'http://localhost:3000';

export interface OpenApiOptions {
  version: string;
  /** The public address of the API (`BASE_URL`), the document's only server. */
  baseUrl: string;
}

/**
 * The OpenAPI 3.1 document of every plugin: the REST surface from the contracts, the keyed
 * surface, the plugins' raw routes and the health probes. Built once at start-up.
 */
export async function generateOpenApiDocument(
  plugins: readonly AnyPlugin[],
  options: OpenApiOptions,
): Promise<OpenAPI.Document> {
  const generator = new OpenAPIGenerator({ schemaConverters });
  const contracts = Object.fromEntries(
    plugins.map((plugin) => [plugin.id, documentedContract(plugin)]),
  );
  const named = namedSchemasOf(plugins);
  const webhooks = webhookDocumentation(plugins);
  const document = await generator.generate(contracts, {
    info: {
      title: 'Checkline API',
      version: options.version,
      // The repository has no licence file and no package names one: no licence is granted
      // until its owners choose one, and the page the document links to says exactly that.
      license: {
        name: 'No licence granted (all rights reserved)',
        url: `${options.baseUrl}${LICENCE_PATH}`,
      },
      contact: { name: 'Checkline maintainers' },
      description: [
        'Every Checkline plugin, on three surfaces built from the same contracts:',
        '',
        '- **REST** (`/rest/{pluginId}/{procedure}`): one procedure per request. Reads are `GET` with the input in the query string (bracket notation for objects; an array parameter is given once per value, `tags=a&tags=b`, or as `tags[0]=a`), changes take a JSON body.',
        '- **Keyed** (`POST /api/{pluginId}/`): `{"procedure": input, ...}`; several keys are one all-or-nothing batch.',
        '- **oRPC** (`/api/{pluginId}/{procedure}`): the protocol of `@orpc/client`.',
        '',
        'Authenticate with an application key (`Authorization: Bearer ck_{applicationId}_{secret}`) or the session cookie a login sets. Every error has the same shape (`ErrorResponse`; the oRPC surface wraps it in the oRPC envelope).',
      ].join('\n'),
    },
    // A variable rather than the literal address: the committed document's default names a
    // local server, and every deployment has its own; clients substitute the default.
    servers: [
      {
        url: '{baseUrl}',
        description: 'A Checkline server, at its `BASE_URL`.',
        variables: {
          baseUrl: {
            default: options.baseUrl,
            description: "The server's `BASE_URL` (this document was generated with the default).",
          },
        },
      },
    ],
    tags: [
      ...plugins
        // Channel plugins only add strategies to notification: nothing of theirs to list.
        .filter((plugin) => Object.keys(plugin.contract).length > 0 || plugin.routes?.length)
        .map((plugin) => ({ name: plugin.id, description: plugin.description })),
      { name: 'server', description: 'The server itself: liveness and readiness probes.' },
    ],
    security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    commonSchemas: Object.fromEntries(
      [...named].map(([id, schema]) => [id, { schema, strategy: 'output' as const }]),
    ),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'ck_{applicationId}_{secret}',
          description: 'An application API key, shown once by `createApplication`.',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'checkline_session',
          description:
            'The session a login sets (`POST /api/auth-backend/custom/login`). Changes sent with it need `Origin` set to the server or the web UI.',
        },
      },
      schemas: { ErrorResponse: errorSchema, ...webhooks.schemas },
      responses: { ...errorResponses, HostNotServed: hostNotServedResponse },
      parameters: { IdempotencyKey: idempotencyKeyParameter },
      headers: { RetryAfter: retryAfterHeader, IdempotentReplayed: idempotentReplayedHeader },
    },
  });
  useFormStyleForQueryArrays(document);
  withoutQueryFlags(document);
  document.paths = { ...document.paths, ...(await rawRoutePaths(plugins)) };
  if (Object.keys(webhooks.webhooks).length > 0) document.webhooks = webhooks.webhooks;
  withoutSafeIntegerBounds(document);
  markDiscriminatedInputs(document, plugins);
  describeEventStreams(document, plugins);
  addRequestExamples(document);
  return document;
}
