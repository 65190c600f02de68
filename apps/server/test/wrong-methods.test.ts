import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createAdminKey } from './support/admin-key.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 24: a wrong method on a path that exists is 405 naming the methods it takes (`Allow`),
 * on every plugin's keyed mount; HEAD on every GET route answers what GET would, without a body.
 */
const plugins = createPlugins(testEnv);
let server: TestServer;
let adminKey: string;
let getPaths: string[];

beforeAll(async () => {
  server = await createTestServer({ plugins });
  adminKey = await createAdminKey(server);
  const response = await server.request('/api/openapi.json', {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
  getPaths = Object.entries(document.paths)
    .filter(([, item]) => 'get' in item)
    .map(([path]) => path.replaceAll(/\{[^}]+\}/g, 'not-a-real-value'));
});
afterAll(() => server.close());

describe('the keyed mount of every plugin', () => {
  const wrongMethods = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'];
  it.each(plugins.map((plugin) => plugin.id))(
    '/api/%s answers a wrong method 405 with Allow: POST',
    async (pluginId) => {
      for (const path of [`/api/${pluginId}`, `/api/${pluginId}/`]) {
        for (const method of wrongMethods) {
          const response = await server.request(path, {
            method,
            headers: { authorization: `Bearer ${adminKey}` },
          });
          expect([method, path, response.status]).toEqual([method, path, 405]);
          expect(response.headers.get('allow')).toBe('POST');
          if (method === 'HEAD') expect(await response.text()).toBe('');
          else {
            expect(await response.json()).toMatchObject({
              code: 'METHOD_NOT_ALLOWED',
              requestId: expect.any(String),
            });
          }
        }
      }
    },
  );

  it('leaves an unknown plugin 404', async () => {
    const response = await server.request('/api/no-such-plugin/', { method: 'GET' });
    expect(response.status).toBe(404);
  });
});

describe('HEAD on every GET route of the document', () => {
  it('answers the status and content type GET answers, with no body', async () => {
    expect(getPaths.length).toBeGreaterThan(30);
    const different: string[] = [];
    for (const path of getPaths) {
      // Streams are left out: a GET that succeeds would not end.
      if (path.endsWith('/streamNotifications')) continue;
      const headers = { authorization: `Bearer ${adminKey}` };
      const get = await server.request(path, { headers, redirect: 'manual' });
      await get.body?.cancel();
      const head = await server.request(path, { method: 'HEAD', headers, redirect: 'manual' });
      const body = await head.text();
      const seen = [head.status, head.headers.get('content-type'), body];
      const expected = [get.status, get.headers.get('content-type'), ''];
      if (JSON.stringify(seen) !== JSON.stringify(expected)) {
        different.push(`${path}: GET ${expected.join(' ')}; HEAD ${seen.join(' ')}`);
      }
    }
    expect(different).toEqual([]);
  });
});
