import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPrincipals } from './support/principals.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/** Issue 24.6: what generated clients read from the document, as they should read it. */
let server: TestServer;
let document: Record<string, any>;

beforeAll(async () => {
  server = await createTestServer({ principals: testPrincipals });
  const response = await server.request('/api/openapi.json', {
    headers: { authorization: 'Bearer reader' },
  });
  document = (await response.json()) as Record<string, any>;
});
afterAll(() => server.close());

const everyNode = (node: unknown, visit: (value: Record<string, unknown>) => void): void => {
  if (typeof node !== 'object' || node === null) return;
  if (!Array.isArray(node)) visit(node as Record<string, unknown>);
  for (const value of Object.values(node)) everyNode(value, visit);
};

const queryParameters = () =>
  Object.values(document.paths as Record<string, Record<string, any>>).flatMap((pathItem) =>
    Object.values(pathItem).flatMap((operation) =>
      ((operation.parameters ?? []) as Record<string, unknown>[]).filter(
        (parameter) => parameter.in === 'query',
      ),
    ),
  );

describe('the OpenAPI document', () => {
  it('declares the RFC 8058 form body of the one-click unsubscribe POST', () => {
    const post = document.paths['/api/notification/unsubscribe/{token}'].post;
    const form = post.requestBody.content['application/x-www-form-urlencoded'];
    expect(post.requestBody.required).toBe(false);
    expect(form.schema.properties['List-Unsubscribe']).toMatchObject({ const: 'One-Click' });
  });

  it('names the error shape ErrorResponse, never the global Error', () => {
    expect(Object.keys(document.components.schemas)).toContain('ErrorResponse');
    expect(Object.keys(document.components.schemas)).not.toContain('Error');
    expect(JSON.stringify(document)).not.toContain('"#/components/schemas/Error"');
  });

  it('declares neither allowEmptyValue nor allowReserved on a query parameter', () => {
    const parameters = queryParameters();
    expect(parameters.length).toBeGreaterThan(40);
    expect(parameters.filter((parameter) => 'allowEmptyValue' in parameter)).toEqual([]);
    expect(parameters.filter((parameter) => 'allowReserved' in parameter)).toEqual([]);
  });

  it('carries no ±(2^53 - 1) integer bounds', () => {
    const bounded: unknown[] = [];
    everyNode(document, (schema) => {
      if (
        schema.minimum === Number.MIN_SAFE_INTEGER ||
        schema.maximum === Number.MAX_SAFE_INTEGER
      ) {
        bounded.push(schema);
      }
    });
    expect(bounded).toEqual([]);
  });

  it('lets a paging loop pass nextCursor back as it is: cursor takes null', async () => {
    const getSystems = document.paths['/rest/catalog/getSystems'].get;
    const cursor = getSystems.parameters.find((parameter: any) => parameter.name === 'cursor');
    expect(JSON.stringify(cursor.schema)).toContain('"null"');
    const first = await server.keyed('catalog', { getSystems: { cursor: null } }, 'reader');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ getSystems: { systems: [], nextCursor: null } });
  });
});
