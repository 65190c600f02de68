import { describe, expect, it } from 'vitest';
import { adminServerPerFile } from './support/server-per-file.ts';

/** Issue 8 item 8: the browser hardening headers on every response of every kind of route. */
const fixture = adminServerPerFile();

const json = { 'content-type': 'application/json' };
const bearer = () => ({ authorization: `Bearer ${fixture.key}` });

const routes: [string, number, () => Response | Promise<Response>][] = [
  ['keyed call', 200, () => fixture.server.keyed('catalog', { getSystems: {} }, fixture.key)],
  [
    'keyed bad input',
    400,
    () => fixture.server.keyed('catalog', { getSystem: { id: 'x' } }, fixture.key),
  ],
  ['keyed anonymous', 401, () => fixture.server.keyed('catalog', { getSystems: {} })],
  ['keyed invalid key', 401, () => fixture.server.keyed('catalog', { getSystems: {} }, 'ck_nope')],
  [
    'keyed unknown plugin',
    404,
    () => fixture.server.keyed('nope', { getSystems: {} }, fixture.key),
  ],
  [
    'oRPC RPC call',
    200,
    () =>
      fixture.server.request('/api/catalog/getSystems', {
        method: 'POST',
        headers: { ...json, ...bearer() },
        body: '{"json":{}}',
      }),
  ],
  [
    'REST read',
    200,
    () => fixture.server.rest('GET', 'catalog/getSystems', { token: fixture.key }),
  ],
  [
    'REST wrong method',
    405,
    () => fixture.server.rest('DELETE', 'catalog/getSystems', { token: fixture.key }),
  ],
  ['unknown path', 404, () => fixture.server.request('/nowhere')],
  [
    'body too large',
    413,
    () =>
      fixture.server.request('/api/catalog/', {
        method: 'POST',
        headers: { ...json, ...bearer() },
        body: `{"getSystems":{"owner":"${'x'.repeat(1024 * 1024)}"}}`,
      }),
  ],
  ['liveness', 200, () => fixture.server.request('/healthz')],
  ['readiness', 200, () => fixture.server.request('/readyz')],
  [
    'OpenAPI document',
    200,
    () => fixture.server.request('/api/openapi.json', { headers: bearer() }),
  ],
  ['OpenAPI document, anonymous', 401, () => fixture.server.request('/api/openapi.json')],
  [
    'login redirect',
    302,
    () =>
      fixture.server.request('/api/auth-backend/custom/login', {
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
