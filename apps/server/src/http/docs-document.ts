import type { OpenAPI } from '@orpc/openapi';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The document as `/api/docs` shows it: each operation titled by its procedure name (its
 * `operationId`, `catalog.getSystems`), which Scalar's sidebar lists, with the summary moved to
 * the first line of the description beside it. Generators read `/api/openapi.json`, unchanged.
 */
export function documentForReference(document: OpenAPI.Document): OpenAPI.Document {
  const copy = structuredClone(document);
  // "Test Request" goes to the server serving the page: same origin, so the browser's session
  // cookie goes with it.
  copy.servers = [{ url: '/', description: 'This server' }];
  for (const item of Object.values(copy.paths ?? {})) {
    for (const method of methods) {
      const operation = (item as Record<string, OpenAPI.OperationObject | undefined>)[method];
      if (!operation?.operationId) continue;
      const description = [operation.summary, operation.description].filter(Boolean).join('\n\n');
      operation.summary = operation.operationId;
      if (description) operation.description = description;
    }
  }
  return copy;
}
