import { mountedRoutes } from '@checkline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 19 item 12: every raw route that changes something with the session cookie follows the
 * rule of the procedure surfaces: our own Origin, as JSON. Without Origin or from another site
 * it is refused with 403 and changes nothing.
 */
let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const OAUTH = '/api/notification/oauth/notification-slack.slack';

/** Whether a session still authenticates (a refused change must leave it alone). */
async function signedIn(session: { cookie: string; origin: string }): Promise<boolean> {
  const response = await server.request('/api/auth/', {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({ getMe: {} }),
  });
  return response.status === 200;
}

interface CookieChange {
  /** A concrete request path for the route. */
  path: string;
  /** What the route does for a signed-in user once the Origin rule lets the request through. */
  works(response: Response, session: { cookie: string; origin: string }): Promise<void>;
}

/** Every raw route that changes state with the session cookie, by `METHOD path`. */
const cookieChanges: Record<string, CookieChange> = {
  'POST /api/auth-backend/logout': {
    path: '/api/auth-backend/logout',
    async works(response, session) {
      expect(response.status).toBe(200);
      expect(response.headers.get('set-cookie')).toMatch(/checkline_session=;.*Max-Age=0/);
      expect(await signedIn(session)).toBe(false);
    },
  },
  'POST /api/notification/oauth/:strategyId/refresh': {
    path: `${OAUTH}/refresh`,
    async works(response) {
      // The admin has linked nothing and the channel is not configured: the route itself says so.
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ code: 'CONFLICT' });
    },
  },
  'DELETE /api/notification/oauth/:strategyId/unlink': {
    path: `${OAUTH}/unlink`,
    async works(response) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        code: 'NOT_FOUND',
        message: 'No linked account on this channel',
      });
    },
  },
};

/** Changing raw routes the session cookie plays no part in, and why. */
const changesWithoutCookie: Record<string, string> = {
  'POST /api/auth-backend/:strategyId/:action': 'sign-in and sign-up: credentials in the body',
  'POST /api/healthcheck/heartbeat/:token': 'the token in the path is the credential',
  'POST /api/notification/unsubscribe/:token': 'the signed token in the path is the credential',
  'POST /api/notification/alerts/acknowledge/:token':
    'the signed token in the path is the credential',
  'POST /api/statuspage/public/:slug/subscribe':
    'anonymous: an address to confirm by mail, the same answer for every address',
  'POST /api/statuspage/subscriptions/confirm/:token': 'the token in the path is the credential',
  'POST /api/statuspage/subscriptions/unsubscribe/:token':
    'the signed token in the path is the credential',
};

const changingRoutes = () =>
  mountedRoutes(server.checkline.plugins)
    .filter((route) => route.method !== 'GET')
    .map((route) => `${route.method} ${route.path}`);

describe('raw routes that change state', () => {
  it('are each classified: by the session cookie or not', () => {
    const routes = changingRoutes();
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      expect(
        Object.hasOwn(cookieChanges, route) || Object.hasOwn(changesWithoutCookie, route),
        `${route} is classified`,
      ).toBe(true);
    }
    expect(Object.keys(cookieChanges).every((route) => routes.includes(route))).toBe(true);
  });
});

describe.each(Object.entries(cookieChanges))('%s with the session cookie', (route, change) => {
  const method = route.split(' ')[0]!;
  const send = (headers: Record<string, string>) =>
    server.request(change.path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    });

  it.each([
    ['without Origin', {}],
    ['from another site', { origin: 'https://attacker.example' }],
    ['from a look-alike origin', { origin: `${testEnv.BASE_URL}.attacker.example` }],
  ])('is refused %s, and the session stays', async (_case, origin: Record<string, string>) => {
    const session = await server.adminSession();
    const response = await send({ cookie: session.cookie, ...origin });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await signedIn(session)).toBe(true);
  });

  it('is refused from our origin when not sent as JSON', async () => {
    const session = await server.adminSession();
    const response = await server.request(change.path, {
      method,
      headers: { ...session, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(response.status).toBe(403);
    expect(await signedIn(session)).toBe(true);
  });

  it('works from our origin', async () => {
    const session = await server.adminSession();
    await change.works(await send(session), session);
  });
});
