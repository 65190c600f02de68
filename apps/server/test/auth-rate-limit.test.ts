import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({
    plugins: createPlugins(testEnv, {
      rateLimits: {
        failedAuthPerIp: { points: 3, durationSeconds: 60 },
        callsPerKey: { points: 5, durationSeconds: 60 },
      },
    }),
  });
});
afterAll(() => server.close());

async function expectTooManyRequests(response: Response) {
  expect(response.status).toBe(429);
  expect(await response.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('rate limits', () => {
  it('answer 429 with Retry-After once a key has made too many calls', async () => {
    const { cookie: session } = await server.adminSession();
    const created = await server.request('/api/auth/', {
      method: 'POST',
      headers: { cookie: session, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
      body: JSON.stringify({ createApplication: { name: 'chatty' } }),
    });
    const { secret } = ((await created.json()) as { createApplication: { secret: string } })
      .createApplication;
    for (let call = 0; call < 5; call++) {
      expect((await server.rest('GET', 'catalog/getSystems', { token: secret })).status).toBe(403);
    }
    await expectTooManyRequests(await server.rest('GET', 'catalog/getSystems', { token: secret }));
    await expectTooManyRequests(await server.keyed('catalog', { getSystems: {} }, secret));
  });

  it('answer 429 with Retry-After after too many failed authentications from one client', async () => {
    const bad =
      'ck_00000000-0000-4000-8000-000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await server.rest('GET', 'catalog/getSystems', { token: bad })).status).toBe(401);
    }
    await expectTooManyRequests(await server.rest('GET', 'catalog/getSystems', { token: bad }));
    await expectTooManyRequests(await server.keyed('catalog', { getSystems: {} }, bad));
  });
});
