import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OpenAPI } from '@orpc/openapi';

export const openapiJsonFile = new URL('../openapi.json', import.meta.url);
/** The TypeScript client `@hey-api/openapi-ts` generates from the document (committed). */
export const generatedClientFolder = new URL('../test/generated/client/', import.meta.url);

export const serializeOpenApi = (document: OpenAPI.Document) =>
  `${JSON.stringify(document, null, 2)}\n`;

/**
 * Writes a fetch client with types and one function per operation into `folder` (replacing what
 * was there), as an integrator would generate it. A dev-time step: the generator is a dev
 * dependency.
 */
export async function generateClient(document: OpenAPI.Document, folder: URL): Promise<void> {
  const { createClient } = await import('@hey-api/openapi-ts');
  const path = fileURLToPath(folder);
  rmSync(path, { recursive: true, force: true });
  await createClient({
    input: JSON.parse(JSON.stringify(document)) as Record<string, unknown>,
    output: { path },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent' },
  });
}
