import { catalogPlugin } from '@checkline/catalog';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testPrincipals } from './support/principals.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({
    plugins: [catalogPlugin],
    principals: testPrincipals,
  });
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.database.db.execute('delete from catalog.groups');
  await server.database.db.execute('delete from catalog.systems');
});

const systemNames = async () => {
  const response = await server.keyed('catalog', { getSystems: {} }, 'reader');
  const body = (await response.json()) as { getSystems: { systems: { name: string }[] } };
  return body.getSystems.systems.map((system) => system.name);
};

describe('keyed RPC: works', () => {
  it('answers a single call under its key', async () => {
    const response = await server.keyed('catalog', { createSystem: { name: 'api' } }, 'manager');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await response.json()) as { createSystem: { name: string; id: string } };
    expect(Object.keys(body)).toEqual(['createSystem']);
    expect(body.createSystem.name).toBe('api');
  });

  it('answers a batch of two with the same keys in the same order', async () => {
    const response = await server.keyed(
      'catalog',
      { createSystem: { name: 'web' }, getSystems: {} },
      'manager',
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['createSystem', 'getSystems']);
    expect(body.getSystems).toMatchObject({ systems: [{ name: 'web' }] });
  });

  it('accepts the path without its trailing slash', async () => {
    const response = await server.request('/api/catalog', {
      method: 'POST',
      headers: { authorization: 'Bearer reader', 'content-type': 'application/json' },
      body: '{"getSystems":{}}',
    });
    expect(response.status).toBe(200);
  });
});

describe('keyed RPC: batches are all-or-nothing', () => {
  it('rolls back a create when a later key fails validation, naming that key', async () => {
    const response = await server.keyed(
      'catalog',
      { createSystem: { name: 'kept?' }, getSystem: { id: 'not-a-uuid' } },
      'manager',
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'BAD_REQUEST', procedure: 'getSystem' });
    expect(body.issues).toEqual([{ path: 'id', message: expect.any(String) }]);
    expect(await systemNames()).toEqual([]);
  });

  it('rolls back earlier writes when a later key fails while running', async () => {
    await server.keyed('catalog', { createSystem: { name: 'taken' } }, 'manager');
    const response = await server.keyed(
      'catalog',
      { createGroup: { name: 'g1' }, createSystem: { name: 'taken' } },
      'manager',
    );
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 'CONFLICT', procedure: 'createSystem' });
    const groups = await server.keyed('catalog', { getGroups: {} }, 'reader');
    expect(await groups.json()).toEqual({ getGroups: { groups: [], nextCursor: null } });
  });

  it('refuses the whole batch before running anything when one key is not allowed', async () => {
    const response = await server.keyed(
      'catalog',
      { getSystems: {}, createSystem: { name: 'sneaky' } },
      'reader',
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Missing access: catalog.catalog.manage',
      procedure: 'createSystem',
    });
    expect(await systemNames()).toEqual([]);
  });
});

describe('keyed RPC: rejects bad requests', () => {
  it('answers 404 for an unknown plugin and for an unknown procedure', async () => {
    const plugin = await server.keyed('nope', { getSystems: {} }, 'reader');
    expect(plugin.status).toBe(404);
    expect(await plugin.json()).toMatchObject({ code: 'NOT_FOUND' });
    const procedure = await server.keyed('catalog', { dropTables: {} }, 'reader');
    expect(procedure.status).toBe(404);
    expect(await procedure.json()).toMatchObject({ code: 'NOT_FOUND', procedure: 'dropTables' });
  });

  it.each([
    ['an array', '[{"getSystems":{}}]'],
    ['a string', '"getSystems"'],
    ['null', 'null'],
    ['an empty object', '{}'],
    ['not JSON at all', '{getSystems:'],
  ])('answers 400 for a body that is %s', async (_label, body) => {
    const response = await server.keyed('catalog', body, 'reader');
    expect(response.status).toBe(400);
    const error = (await response.json()) as Record<string, unknown>;
    expect(error).toMatchObject({ code: 'BAD_REQUEST', requestId: expect.any(String) });
  });

  it('answers 400 for 21 keys and runs none of them', async () => {
    const body = Object.fromEntries(
      Array.from({ length: 21 }, (_, index) => [`createSystem${index}`, {}]),
    );
    const response = await server.keyed('catalog', body, 'manager');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'A batch holds at most 20 procedures; this one has 21',
    });
  });

  it('accepts exactly 20 keys', async () => {
    const body = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x${i}`, {}]));
    // 20 keys pass the size check and fail only because the names are unknown.
    const response = await server.keyed('catalog', body, 'reader');
    expect(response.status).toBe(404);
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const big = JSON.stringify({
      createSystem: { name: 'x', description: 'y'.repeat(1024 * 1024) },
    });
    const response = await server.keyed('catalog', big, 'manager');
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await systemNames()).toEqual([]);
  });
});
