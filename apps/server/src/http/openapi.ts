import type { AnyPlugin } from '@checkline/core';
import { errorStatus } from '@checkline/core';
import { OpenAPIGenerator } from '@orpc/openapi';
import type { OpenAPI } from '@orpc/openapi';
import { ZodToJsonSchemaConverter } from '@orpc/zod/zod4';

export const schemaConverters = [new ZodToJsonSchemaConverter()];

const errorSchema: OpenAPI.SchemaObject = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', enum: Object.keys(errorStatus) },
    message: { type: 'string' },
    procedure: { type: 'string', description: 'The failing key of a keyed batch' },
    issues: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
    requestId: { type: 'string' },
  },
};

/** The OpenAPI 3.1 document of every plugin's REST surface; built once at start-up. */
export async function generateOpenApiDocument(
  plugins: readonly AnyPlugin[],
  info: { version: string },
): Promise<OpenAPI.Document> {
  const generator = new OpenAPIGenerator({ schemaConverters });
  const contracts = Object.fromEntries(plugins.map((plugin) => [plugin.id, plugin.contract]));
  return generator.generate(contracts, {
    info: {
      title: 'Checkline API',
      version: info.version,
      description:
        'REST surface of every Checkline plugin. Authenticate with `Authorization: Bearer ck_{applicationId}_{secret}`.',
    },
    tags: plugins.map((plugin) => ({ name: plugin.id })),
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An application API key' },
      },
      schemas: { Error: errorSchema },
    },
  });
}
