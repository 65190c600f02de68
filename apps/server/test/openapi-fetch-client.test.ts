import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from './generated/openapi.d.ts';
import { testPrincipals } from './support/principals.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let listening: { url: string; close(): Promise<void> };

/** The query format of API.md 1.3 (`tags[0]=a&tags[1]=b`), as an integrator would configure it. */
function bracketNotation(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (Array.isArray(value)) value.forEach((item, index) => add(`${key}[${index}]`, item));
    else if (value !== null && typeof value === 'object') {
      for (const [child, item] of Object.entries(value)) add(`${key}[${child}]`, item);
    } else params.append(key, String(value));
  };
  for (const [key, value] of Object.entries(query)) add(key, value);
  return params.toString();
}

const clientAs = (token: string) =>
  createClient<paths>({ baseUrl: listening.url, headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  server = await createTestServer({ principals: testPrincipals });
  listening = await server.listen();
});
afterAll(async () => {
  await listening.close();
  await server.close();
});

describe('a client generated from apps/server/openapi.json (openapi-typescript + openapi-fetch)', () => {
  it('drives the REST surface: POST, GET with query arrays, PATCH and DELETE', async () => {
    const manager = clientAs('manager');
    const created = await manager.POST('/rest/catalog/createSystem', {
      body: { name: 'generated-client', tags: ['gen', 'rest'] },
    });
    expect(created.response.status).toBe(200);
    const id = created.data!.id;

    const listed = await clientAs('reader').GET('/rest/catalog/getSystems', {
      params: { query: { tags: ['gen'] } },
      querySerializer: bracketNotation,
    });
    expect(listed.response.status).toBe(200);
    expect(listed.data?.systems.map((system) => system.id)).toEqual([id]);

    const updated = await manager.PATCH('/rest/catalog/updateSystem', {
      body: { id, description: 'from openapi-fetch' },
    });
    expect(updated.data?.description).toBe('from openapi-fetch');

    const deleted = await manager.DELETE('/rest/catalog/deleteSystem', { body: { id } });
    expect(deleted.data).toEqual({ id, deleted: true });
  });

  it('reads the error object of a refused call', async () => {
    const result = await clientAs('reader').POST('/rest/catalog/createSystem', {
      body: { name: 'not allowed' },
    });
    expect(result.response.status).toBe(403);
    expect(result.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Missing access: catalog.catalog.manage',
    });
  });
});
