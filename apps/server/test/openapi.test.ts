import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openApiTypes,
  openapiJsonFile,
  openapiTypesFile,
  serializeOpenApi,
} from '../src/openapi-files.ts';
import { testPrincipals } from './support/principals.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({ principals: testPrincipals });
});
afterAll(() => server.close());

type Operation = {
  operationId: string;
  tags: string[];
  security: unknown[];
  responses: Record<string, unknown>;
  'x-access-rules': string[];
};

const served = async () => {
  const response = await server.request('/api/openapi.json', {
    headers: { authorization: 'Bearer nobody' },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown> };
  };
};

describe('GET /api/openapi.json', () => {
  it('describes every REST path under /rest with operationId, tag, security, errors and access rules', async () => {
    const document = await served();
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.components.securitySchemes.bearerAuth).toEqual({
      type: 'http',
      scheme: 'bearer',
      description: expect.any(String),
    });
    const paths = Object.entries(document.paths);
    expect(paths.length).toBeGreaterThan(10);
    for (const [path, operations] of paths) {
      const [, rest, pluginId, procedure] = path.split('/');
      expect(rest).toBe('rest');
      for (const operation of Object.values(operations)) {
        expect(operation.operationId).toBe(`${pluginId}.${procedure}`);
        expect(operation.tags).toEqual([pluginId]);
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(operation.responses)).toEqual(
          expect.arrayContaining(['200', '400', '401', '404', '500']),
        );
        expect(Array.isArray(operation['x-access-rules'])).toBe(true);
      }
    }
    expect(document.paths['/rest/catalog/getSystems']?.get?.['x-access-rules']).toEqual([
      'catalog.catalog.read',
    ]);
    expect(document.paths['/rest/catalog/deleteSystem']?.delete?.['x-access-rules']).toEqual([
      'catalog.catalog.manage',
    ]);
  });

  it('is refused to anonymous callers', async () => {
    const response = await server.request('/api/openapi.json');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('matches the committed apps/server/openapi.json (run `pnpm openapi` after changing a contract)', () => {
    const committed = readFileSync(openapiJsonFile, 'utf8');
    expect(serializeOpenApi(server.checkline.openapi)).toBe(committed);
  });

  it('matches the committed client types generated from it', async () => {
    const committed = readFileSync(openapiTypesFile, 'utf8');
    expect(await openApiTypes(server.checkline.openapi)).toBe(committed);
  });
});
