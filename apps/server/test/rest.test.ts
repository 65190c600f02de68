import { catalogPlugin } from '@checkline/catalog';
import type { ProcedureMeta } from '@checkline/core';
import type { AnyContractProcedure } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probePlugin } from './support/probe-plugin.ts';
import { testPrincipals } from './support/principals.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let everyPlugin: TestServer;

beforeAll(async () => {
  server = await createTestServer({
    plugins: [catalogPlugin, probePlugin],
    principals: testPrincipals,
  });
  everyPlugin = await createTestServer();
});
afterAll(async () => {
  await server.close();
  await everyPlugin.close();
});

/** The REST method table (docs/api.md), written out independently of the code that derives it. */
function methodByNamingRule(name: string, meta: ProcedureMeta): string {
  if (meta.kind === 'query') return name.startsWith('getBulk') || meta.bulk ? 'POST' : 'GET';
  for (const [prefixes, method] of [
    [['create', 'add'], 'POST'],
    [['update'], 'PATCH'],
    [['delete', 'remove'], 'DELETE'],
  ] as const) {
    if (prefixes.some((prefix) => name.startsWith(prefix))) return method;
  }
  return 'POST';
}

describe('REST: methods follow the naming rule', () => {
  it('gives every procedure of every mounted plugin the method of its name, in code and in OpenAPI', () => {
    const { plugins, openapi } = everyPlugin.checkline;
    let checked = 0;
    for (const plugin of plugins) {
      for (const [name, procedure] of Object.entries(plugin.contract)) {
        const def = (procedure as AnyContractProcedure)['~orpc'];
        const expected = methodByNamingRule(name, def.meta as ProcedureMeta);
        expect({ name, method: def.route.method }).toEqual({ name, method: expected });
        const path = openapi.paths?.[`/rest/${plugin.id}/${name}`] ?? {};
        expect(Object.keys(path)).toEqual([expected.toLowerCase()]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(11);
  });
});

describe('REST: works', () => {
  it('creates with POST, reads with GET, updates with PATCH and deletes with DELETE', async () => {
    const created = await server.rest('POST', 'catalog/createSystem', {
      token: 'manager',
      body: { name: 'rest-api', tags: ['edge', 'prod'], metadata: { tier: 1 } },
    });
    expect(created.status).toBe(200);
    const system = (await created.json()) as { id: string };

    const read = await server.rest('GET', 'catalog/getSystem', {
      token: 'reader',
      query: `id=${system.id}`,
    });
    expect(await read.json()).toMatchObject({ id: system.id, tags: ['edge', 'prod'] });

    const filtered = await server.rest('GET', 'catalog/getSystems', {
      token: 'reader',
      query: 'tags[0]=prod&tags[1]=edge',
    });
    expect(await filtered.json()).toMatchObject({ systems: [{ name: 'rest-api' }] });

    const patched = await server.rest('PATCH', 'catalog/updateSystem', {
      token: 'manager',
      body: { id: system.id, owner: 'sre' },
    });
    expect(await patched.json()).toMatchObject({ owner: 'sre', name: 'rest-api' });

    const deleted = await server.rest('DELETE', 'catalog/deleteSystem', {
      token: 'manager',
      body: { id: system.id },
    });
    expect(await deleted.json()).toEqual({ id: system.id, deleted: true });
  });

  it('decodes bracket notation with nested objects, arrays, booleans and numbers', async () => {
    const response = await server.rest('GET', 'probe/echo', {
      query:
        'filter[active]=true&filter[minScore]=2.5&filter[owner][name]=Ann%20Lee&ids[0]=a&ids[1]=b&limit=10',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      filter: { active: true, minScore: 2.5, owner: { name: 'Ann Lee' } },
      ids: ['a', 'b'],
      limit: 10,
    });
    const falsy = await server.rest('GET', 'probe/echo', {
      query: 'filter[active]=false&filter[minScore]=0&filter[owner][name]=x&ids[0]=only',
    });
    expect(await falsy.json()).toMatchObject({ filter: { active: false, minScore: 0 } });
  });
});

describe('REST: rejects bad requests', () => {
  it('answers 405 with Allow for a known path and the wrong method', async () => {
    const response = await server.rest('POST', 'catalog/getSystems', { token: 'reader', body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    const del = await server.rest('GET', 'catalog/deleteSystem', { token: 'manager' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('DELETE');
  });

  it('answers HEAD on a GET route as GET, without a body; HEAD on a change is 405', async () => {
    const get = await server.rest('GET', 'catalog/getSystems', { token: 'reader' });
    const head = await server.rest('HEAD', 'catalog/getSystems', { token: 'reader' });
    expect(head.status).toBe(get.status);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(await head.text()).toBe('');
    const refused = await server.rest('HEAD', 'catalog/getSystems', { token: 'nobody' });
    expect(refused.status).toBe(403);
    const change = await server.rest('HEAD', 'catalog/deleteSystem', { token: 'manager' });
    expect(change.status).toBe(405);
    expect(change.headers.get('allow')).toBe('DELETE');
  });

  it('answers 404 with the error object for unknown plugins and procedures', async () => {
    for (const path of ['catalog/nothing', 'nothing/getSystems']) {
      const response = await server.rest('GET', path, { token: 'reader' });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        code: 'NOT_FOUND',
        requestId: expect.any(String),
      });
    }
  });

  it('answers 400 with issues per field for values that do not coerce', async () => {
    const response = await server.rest('GET', 'probe/echo', {
      query: 'filter[active]=maybe&filter[minScore]=lots&filter[owner][name]=x&ids[0]=a&limit=1.5',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; issues: { path: string }[] };
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.issues.map((issue) => issue.path).sort()).toEqual([
      'filter.active',
      'filter.minScore',
      'limit',
    ]);
  });

  it('sends the same error object as the keyed surface', async () => {
    const rest = await server.rest('GET', 'catalog/getSystems', { token: 'nobody' });
    const keyed = await server.keyed('catalog', { getSystems: {} }, 'nobody');
    expect(rest.status).toBe(403);
    const restBody = (await rest.json()) as Record<string, unknown>;
    const keyedBody = (await keyed.json()) as Record<string, unknown>;
    expect(restBody).toEqual({
      code: 'FORBIDDEN',
      message: 'Missing access: catalog.catalog.read',
      requestId: rest.headers.get('x-request-id'),
    });
    expect(keyedBody).toEqual({
      ...restBody,
      procedure: 'getSystems',
      requestId: keyed.headers.get('x-request-id'),
    });
  });

  it('hides internals of an unexpected failure and logs them with the request id', async () => {
    const response = await server.rest('POST', 'probe/explode', { body: {} });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'Internal server error',
      requestId: response.headers.get('x-request-id'),
    });
    expect(text).not.toContain('secret_internal_table');
    const logged = server.logLines.find((line) => line.includes('secret_internal_table'));
    expect(logged).toBeDefined();
    expect(JSON.parse(logged!)).toMatchObject({ requestId: response.headers.get('x-request-id') });
  });
});
