import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminKey } from './support/admin-key.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/** Issue 8 item 8: the browser hardening headers on every response of every kind of route. */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await createTestServer();
  key = await createAdminKey(server);
});
afterAll(() => server.close());

const json = { 'content-type': 'application/json' };
const bearer = () => ({ authorization: `Bearer ${key}` });

const routes: [string, number, () => Response | Promise<Response>][] = [
  ['keyed call', 200, () => server.keyed('catalog', { getSystems: {} }, key)],
  ['keyed bad input', 400, () => server.keyed('catalog', { getSystem: { id: 'x' } }, key)],
  ['keyed anonymous', 401, () => server.keyed('catalog', { getSystems: {} })],
  ['keyed invalid key', 401, () => server.keyed('catalog', { getSystems: {} }, 'ck_nope')],
  ['keyed unknown plugin', 404, () => server.keyed('nope', { getSystems: {} }, key)],
  [
    'oRPC RPC call',
    200,
    () =>
      server.request('/api/catalog/getSystems', {
        method: 'POST',
        headers: { ...json, ...bearer() },
        body: '{"json":{}}',
      }),
  ],
  ['REST read', 200, () => server.rest('GET', 'catalog/getSystems', { token: key })],
  ['REST wrong method', 405, () => server.rest('DELETE', 'catalog/getSystems', { token: key })],
  ['unknown path', 404, () => server.request('/nowhere')],
  [
    'body too large',
    413,
    () =>
      server.request('/api/catalog/', {
        method: 'POST',
        headers: { ...json, ...bearer() },
        body: `{"getSystems":{"owner":"${'x'.repeat(1024 * 1024)}"}}`,
      }),
  ],
  ['liveness', 200, () => server.request('/healthz')],
  ['readiness', 200, () => server.request('/readyz')],
  ['OpenAPI document', 200, () => server.request('/api/openapi.json', { headers: bearer() })],
  ['OpenAPI document, anonymous', 401, () => server.request('/api/openapi.json')],
  [
    'login redirect',
    302,
    () =>
      server.request('/api/auth-backend/custom/login', {
        method: 'POST',
        headers: json,
        body: '{"username":"nobody@example.com","password":"wrong"}',
      }),
  ],
];

describe('security headers on every response', () => {
  it.each(routes)('%s (%i)', async (_name, status, send) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'none'");
    expect(response.headers.get('x-powered-by')).toBeNull();
  });
});
