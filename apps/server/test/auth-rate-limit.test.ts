import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

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

const BAD_KEY =
  'ck_00000000-0000-4000-8000-000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

async function expectTooManyRequests(response: Response) {
  expect(response.status).toBe(429);
  expect(await response.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

const login = (
  target: TestServer,
  password: string,
  headers: Record<string, string> = {},
  username = testAdmin.email,
) =>
  target.request('/api/auth-backend/custom/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ username, password }),
  });

/** The message of a redirect to the error page (underscores back to spaces). */
const errorOf = (response: Response) =>
  response.status === 302
    ? new URL(response.headers.get('location')!).searchParams.get('error')!.replaceAll('_', ' ')
    : `status ${response.status}`;

async function createKey(target: TestServer, name: string) {
  const { cookie } = await target.adminSession();
  const created = await target.request('/api/auth/', {
    method: 'POST',
    headers: { cookie, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
    body: JSON.stringify({ createApplication: { name } }),
  });
  return ((await created.json()) as { createApplication: { secret: string } }).createApplication
    .secret;
}

describe('rate limits', () => {
  it('answer 429 with Retry-After once a key has made too many calls', async () => {
    const secret = await createKey(server, 'chatty');
    for (let call = 0; call < 5; call++) {
      expect((await server.rest('GET', 'catalog/getSystems', { token: secret })).status).toBe(403);
    }
    await expectTooManyRequests(await server.rest('GET', 'catalog/getSystems', { token: secret }));
    await expectTooManyRequests(await server.keyed('catalog', { getSystems: {} }, secret));
  });

  it('answer 429 after too many failed authentications from one address, yet take valid keys and sessions from it', async () => {
    const valid = await createKey(server, 'unaffected');
    const { cookie } = await server.adminSession();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await server.rest('GET', 'catalog/getSystems', { token: BAD_KEY })).status).toBe(401);
    }
    await expectTooManyRequests(await server.rest('GET', 'catalog/getSystems', { token: BAD_KEY }));
    await expectTooManyRequests(await server.keyed('catalog', { getSystems: {} }, BAD_KEY));
    expect(errorOf(await login(server, testAdmin.password))).toBe(
      'Too many failed attempts, try again later',
    );
    // Valid credentials are never refused for the failures of their address.
    expect((await server.keyed('auth', { getMe: {} }, valid)).status).toBe(200);
    const bySession = await server.request('/rest/auth/getMe', { headers: { cookie } });
    expect(bySession.status).toBe(200);
  });
});

describe('behind a trusted proxy', () => {
  let proxied: TestServer;

  beforeAll(async () => {
    proxied = await createTestServer({
      plugins: createPlugins(
        { ...testEnv, TRUST_PROXY: true },
        {
          rateLimits: {
            failedAuthPerIp: { points: 3, durationSeconds: 60 },
            failedLoginsPerAccount: { points: 3, durationSeconds: 3_600 },
            callsPerKey: false,
          },
        },
      ),
    });
  });
  afterAll(() => proxied.close());

  const from = (forwardedFor?: string): Record<string, string> =>
    forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };

  it('counts failed sign-ins per account across addresses, and other accounts stay open', async () => {
    const { cookie } = await proxied.adminSession();
    const created = await proxied.request('/api/auth/', {
      method: 'POST',
      headers: { cookie, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
      body: JSON.stringify({
        createUser: { email: 'target@example.com', password: 'target sound password' },
      }),
    });
    expect(created.status).toBe(200);
    for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      const guess = await login(proxied, 'a wrong guess', from(address), 'target@example.com');
      expect(errorOf(guess)).toBe('Invalid username or password');
    }
    const right = await login(
      proxied,
      'target sound password',
      from('203.0.113.4'),
      'target@example.com',
    );
    expect(errorOf(right)).toBe('Too many failed attempts, try again later');
    expect(right.headers.get('retry-after')).toMatch(/^\d+$/);
    const other = await login(proxied, testAdmin.password, from('203.0.113.4'));
    expect(other.status).toBe(200);
  });

  it('counts a missing or unparsable X-Forwarded-For as the proxy itself, not a fresh address', async () => {
    const statusFrom = async (forwardedFor?: string) =>
      (
        await proxied.request('/rest/catalog/getSystems', {
          headers: { authorization: `Bearer ${BAD_KEY}`, ...from(forwardedFor) },
        })
      ).status;
    expect(await statusFrom(undefined)).toBe(401);
    expect(await statusFrom('not-an-address')).toBe(401);
    expect(await statusFrom('')).toBe(401);
    // All three were the proxy's own address, whose budget is now spent.
    expect(await statusFrom(undefined)).toBe(429);
    expect(await statusFrom('999.1.2.3')).toBe(429);
    expect(await statusFrom('198.51.100.7')).toBe(401);
  });
});
