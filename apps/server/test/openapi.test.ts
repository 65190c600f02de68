import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiJsonFile, serializeOpenApi } from '../src/openapi-files.ts';
import { testPrincipals } from './support/principals.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({ principals: testPrincipals });
});
afterAll(() => server.close());

type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  security: unknown[];
  parameters?: { in: string; schema: { type?: string; $ref?: string } }[];
  responses: Record<string, { $ref?: string }>;
  'x-access-rules': string[];
};

type Document = {
  openapi: string;
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, unknown>;
    responses: Record<string, { headers?: Record<string, unknown> }>;
  };
};

const served = async () => {
  const response = await server.request('/api/openapi.json', {
    headers: { authorization: 'Bearer nobody' },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Document;
};

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );

describe('GET /api/openapi.json', () => {
  it('describes every REST path under /rest with operationId, tag, security, errors and access rules', async () => {
    const document = await served();
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      sessionCookie: expect.objectContaining({
        type: 'apiKey',
        in: 'cookie',
        name: 'checkline_session',
      }),
    });
    const rest = operationsOf(document).filter(({ path }) => path.startsWith('/rest/'));
    expect(rest.length).toBeGreaterThan(10);
    for (const { path, operation } of rest) {
      const [, , pluginId, procedure] = path.split('/');
      expect(operation.operationId).toBe(`${pluginId}.${procedure}`);
      expect(operation.tags).toEqual([pluginId]);
      expect(operation.security.slice(0, 2)).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '405', '429', '500', '503']),
      );
      expect(Array.isArray(operation['x-access-rules'])).toBe(true);
    }
    // 404 only where the contract declares NOT_FOUND or names a resource id: not on a list.
    expect(document.paths['/rest/catalog/getSystems']?.get?.responses['404']).toBeUndefined();
    expect(document.paths['/rest/incident/getIncident']?.get?.responses['404']).toBeDefined();
    expect(document.paths['/rest/catalog/getSystem']?.get?.responses['404']).toBeDefined();
    expect(document.paths['/rest/catalog/getSystems']?.get?.['x-access-rules']).toEqual([
      'catalog.catalog.read',
    ]);
    expect(document.paths['/rest/catalog/deleteSystem']?.delete?.['x-access-rules']).toEqual([
      'catalog.catalog.manage',
    ]);
  });

  it('gives every operation a summary and a description, and every tag a description', async () => {
    const document = await served();
    for (const { path, method, operation } of operationsOf(document)) {
      expect({ path, method, summary: operation.summary }).toEqual({
        path,
        method,
        summary: expect.stringMatching(/\S/),
      });
      expect(operation.description, `${method} ${path}`).toMatch(/\S/);
    }
    expect(document.paths['/rest/catalog/getSystems']?.get?.summary).toBe(
      'Systems by name, a page at a time, optionally only those with all tags or one owner.',
    );
    expect(document.paths['/rest/catalog/getSystems']?.get?.description).toContain(
      '`catalog.catalog.read`',
    );
    const tags = new Set(document.tags.map((tag) => tag.name));
    for (const { operation } of operationsOf(document)) {
      for (const tag of operation.tags) expect(tags).toContain(tag);
    }
    for (const tag of document.tags) expect(tag.description, tag.name).toMatch(/\S/);
  });

  it('names the shared shapes as components and refers to them', async () => {
    const document = await served();
    for (const name of ['System', 'Group', 'HealthCheck', 'Incident', 'Window', 'Application']) {
      expect(document.components.schemas).toHaveProperty(name);
    }
    for (const name of ['Role', 'Team', 'User', 'ErrorResponse']) {
      expect(document.components.schemas).toHaveProperty(name);
    }
    for (const name of ['System', 'Incident']) {
      expect(document.components.schemas[name]).toMatchObject({ examples: [expect.any(Object)] });
    }
    const getSystem = document.paths['/rest/catalog/getSystem']?.get?.responses['200'];
    expect(JSON.stringify(getSystem)).toContain('"$ref":"#/components/schemas/System"');
    const text = JSON.stringify(document);
    for (const name of Object.keys(document.components.schemas)) {
      expect(text, `component ${name} is used`).toContain(`"#/components/schemas/${name}"`);
    }
  });

  it('declares Idempotent-Replayed on the success of every operation taking an Idempotency-Key', async () => {
    const document = await served();
    const retryable = operationsOf(document).filter(({ operation }) =>
      JSON.stringify(operation.parameters ?? []).includes('#/components/parameters/IdempotencyKey'),
    );
    expect(retryable.length).toBeGreaterThan(40);
    const without = retryable
      .filter(({ operation }) => {
        const ok = operation.responses['200'] as { headers?: Record<string, unknown> } | undefined;
        return !ok?.headers?.['Idempotent-Replayed'];
      })
      .map(({ path }) => path);
    expect(without).toEqual([]);
  });

  it('links its licence to a page this server serves, which says that none is granted', async () => {
    const document = (await served()) as Document & { info: { license: { url: string } } };
    const url = new URL(document.info.license.url);
    expect(url.origin).toBe('http://localhost:3000');
    const page = await server.request(url.pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await page.text()).toContain('No licence is granted.');
  });

  it('names the server and documents 405, 413 and 503, with Retry-After on 429 and 503', async () => {
    const document = await served();
    expect(document.servers).toEqual([
      {
        url: '{baseUrl}',
        description: expect.any(String),
        variables: {
          baseUrl: { default: 'http://localhost:3000', description: expect.any(String) },
        },
      },
    ]);
    const { responses } = document.components;
    expect(responses.TooManyRequests?.headers).toHaveProperty('Retry-After');
    expect(responses.ServiceUnavailable?.headers).toHaveProperty('Retry-After');
    expect(responses.MethodNotAllowed?.headers).toHaveProperty('Allow');
    const create = document.paths['/rest/catalog/createSystem']?.post;
    expect(create?.responses['413']).toEqual({ $ref: '#/components/responses/PayloadTooLarge' });
    expect(create?.responses['503']).toEqual({ $ref: '#/components/responses/ServiceUnavailable' });
  });

  it('describes the keyed surface, login, sign-up and logout, and the health probes', async () => {
    const document = await served();
    for (const plugin of server.checkline.plugins) {
      const keyed = document.paths[`/api/${plugin.id}`]?.post;
      // A plugin without procedures (the e-mail channel) has no keyed path.
      const procedures = Object.keys(plugin.contract).length;
      expect(keyed?.operationId).toBe(procedures > 0 ? `${plugin.id}.keyed` : undefined);
    }
    expect(document.paths['/api/notification-smtp']).toBeUndefined();
    expect(document.paths['/api/notification/unsubscribe/{token}']?.post?.security).toEqual([]);
    const keyedBody = JSON.stringify(document.paths['/api/catalog']?.post);
    expect(keyedBody).toContain('"getSystems"');
    expect(keyedBody).toContain('"#/components/schemas/System"');
    for (const path of [
      '/api/auth-backend/custom/login',
      '/api/auth-backend/custom/signup',
      '/api/auth-backend/logout',
    ]) {
      expect(document.paths[path]?.post?.summary, path).toMatch(/\S/);
    }
    expect(document.paths['/healthz']?.get?.security).toEqual([]);
    expect(document.paths['/readyz']?.get?.responses).toHaveProperty('503');
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
});
