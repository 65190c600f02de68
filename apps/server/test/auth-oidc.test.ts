import { createServer } from 'node:net';
import type { AuthContract } from '@checkline/auth/contract';
import type { TestIssuer } from '@checkline/auth/testing';
import { startTestIssuer } from '@checkline/auth/testing';
import type { NotificationContract } from '@checkline/notification/contract';
import {
  recordingStrategy,
  testChannelPlugin,
  writeStrategySettings,
} from '@checkline/notification/testing';
import type { ContractRouterClient } from '@orpc/contract';
import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env.ts';
import { createPlugins } from '../src/plugins.ts';
import { contractClient } from './support/contract-client.ts';
import { settledDeliveries } from './support/settled-deliveries.ts';
import type { TestServer } from './support/test-server.ts';
import { createTestServer, testAdmin, testEnv } from './support/test-server.ts';

/**
 * Issue 12 item 3 across plugins: the auth plugin, configured by `OIDC_*`, signs a person in
 * through a real OpenID Connect provider on loopback (oauth2-mock-server), every hop real HTTP;
 * the notification plugin's `auth-provider` contact resolution then reaches the e-mail that
 * provider verified.
 */
type Contracts = { auth: AuthContract; notification: NotificationContract };

const PROVIDER = 'corp-sso';
const CLIENT_SECRET = 'oidc-client-secret-3f9a1c77d2';
const CHANNEL = 'test-channel';
const STRATEGY = `${CHANNEL}.sso-mail`;
const sso = recordingStrategy({
  id: 'sso-mail',
  contactResolution: { type: 'auth-provider', provider: PROVIDER },
});

/** The test server's environment with `extra` set, read as the server reads its own. */
const envWith = (extra: Record<string, string>) =>
  loadEnv({
    NODE_ENV: 'test',
    BASE_URL: testEnv.BASE_URL,
    ADMIN_EMAIL: testAdmin.email,
    ADMIN_PASSWORD: testAdmin.password,
    ...extra,
  });

let issuer: TestIssuer;
let server: TestServer;
let listening: { url: string; close: () => Promise<void> };
let admin: ContractRouterClient<Contracts>;
let people = 0;

beforeAll(async () => {
  issuer = await startTestIssuer();
  const env = envWith({
    OIDC_ISSUER: issuer.url,
    OIDC_CLIENT_ID: 'checkline',
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_NAME: PROVIDER,
  });
  server = await createTestServer({
    plugins: createPlugins(env, {}, [testChannelPlugin(CHANNEL, [sso.strategy])], {
      delivery: { maxAttempts: 2, retryDelaysMs: [5, 10, 20] },
    }),
  });
  listening = await server.listen();
  const { cookie } = await server.adminSession();
  admin = contractClient<Contracts>(() => server, { cookie, origin: testEnv.BASE_URL });
  await writeStrategySettings(server.database.db, STRATEGY);
});
afterAll(async () => {
  await listening?.close();
  await server?.close();
  await issuer?.close();
});

const newPerson = (name = 'Grace Hopper') => {
  const n = ++people;
  return { sub: `sso-${n}`, email: `person-${n}@corp.example`, email_verified: true, name };
};

const setRegistration = (allowRegistration: boolean) =>
  admin.auth.updateRegistrationStatus({ allowRegistration });

/** A browser: keeps the cookies our server sets (only ours: the provider sets none). */
function browser() {
  const jar = new Map<string, string>();
  return {
    jar,
    /** GET on our server over real HTTP; the answer is not followed. */
    async get(path: string): Promise<Response> {
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await fetch(`${listening.url}${path}`, {
        redirect: 'manual',
        headers: cookie ? { cookie } : {},
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split('; ');
        const [name = '', value = ''] = pair.split('=');
        const expired = attributes.includes('Max-Age=0') || value === '';
        if (expired) jar.delete(name);
        else jar.set(name, value);
      }
      return response;
    },
  };
}

/**
 * Begins signing in and follows the provider's authorize redirect: answers where the provider
 * sends the browser back, which must be our public callback address.
 */
async function toProviderAndBack(person: ReturnType<typeof newPerson>, returnTo = '/systems') {
  issuer.signInAs(person);
  const client = browser();
  const started = await client.get(
    `/api/auth-backend/${PROVIDER}/login?returnTo=${encodeURIComponent(returnTo)}`,
  );
  expect(started.status).toBe(302);
  const authorize = started.headers.get('location')!;
  expect(authorize.startsWith(`${issuer.url}/authorize?`)).toBe(true);
  const back = await issuer.authorize(authorize);
  expect(`${back.origin}${back.pathname}`).toBe(
    `${testEnv.BASE_URL}/api/auth-backend/${PROVIDER}/callback`,
  );
  // Our public address is BASE_URL; this process listens elsewhere, as behind a proxy.
  return { client, callbackPath: `${back.pathname}${back.search}`, back };
}

async function signIn(person: ReturnType<typeof newPerson>, returnTo?: string) {
  const { client, callbackPath } = await toProviderAndBack(person, returnTo);
  return { client, response: await client.get(callbackPath) };
}

const errorOf = (response: Response, client: ReturnType<typeof browser>) => {
  expect(response.status).toBe(302);
  const location = response.headers.get('location')!;
  expect(location.startsWith(`${testEnv.FRONTEND_URL}/auth/error?error=`)).toBe(true);
  expect(client.jar.has('checkline_session')).toBe(false);
  return new URL(location).searchParams.get('error');
};

type IdentityRow = { provider: string; email: string | null; user_id: string };

/** The rows of `auth.identities` for `subject`, read with SQL (PGlite or PostgreSQL). */
async function identitiesOf(subject: string): Promise<IdentityRow[]> {
  return queryRows<IdentityRow>(
    server.database.db,
    sql`select provider, email, user_id from auth.identities where subject = ${subject}`,
  );
}

const settled = (notificationId: string) => settledDeliveries(admin.notification, notificationId);

describe('OIDC sign-in through the server', () => {
  it('signs a new person in through the whole redirect flow and records the verified e-mail', async () => {
    await setRegistration(true);
    const person = newPerson();
    const { client, response } = await signIn(person, '/systems?view=board');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${testEnv.FRONTEND_URL}/systems?view=board`);
    expect(client.jar.get('checkline_session')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const me = (await (await client.get('/rest/auth/getMe')).json()) as { id: string };
    expect(me).toMatchObject({
      kind: 'user',
      email: person.email,
      name: 'Grace Hopper',
      isAdmin: false,
    });
    expect(await identitiesOf(person.sub)).toEqual([
      { provider: PROVIDER, email: person.email, user_id: me.id },
    ]);
  });

  it('delivers through an auth-provider strategy for that provider to the verified e-mail', async () => {
    await setRegistration(true);
    const person = newPerson();
    const { client } = await signIn(person);
    const me = (await (await client.get('/rest/auth/getMe')).json()) as { id: string };
    const mayUse = await admin.auth.createRole({
      name: 'sso-mail users',
      accessRules: [`${CHANNEL}.strategy.sso-mail.use`],
    });
    const { roleIds } = (await admin.auth.getUsers({ limit: 1000 })).users.find(
      (user) => user.id === me.id,
    )!;
    await admin.auth.updateUser({ id: me.id, roleIds: [...roleIds, mayUse.id] });

    const { notificationId } = await admin.notification.sendExternal({
      userIds: [me.id],
      strategyId: STRATEGY,
      notification: { title: 'Checkout is down', importance: 'critical', type: 'test.alert' },
    });
    const [delivery] = await settled(notificationId);
    expect(delivery).toMatchObject({ status: 'sent', userId: me.id });
    expect(sso.sent.map((context) => context.contact)).toEqual([person.email]);
  });

  it('lists the provider among the login strategies, under OIDC_NAME', async () => {
    const strategies = await (await browser().get('/rest/auth/getLoginStrategies')).json();
    expect(strategies).toEqual({
      strategies: [
        { id: 'custom', displayName: 'E-mail and password', signInUrl: null },
        {
          id: PROVIDER,
          displayName: PROVIDER,
          signInUrl: `${testEnv.BASE_URL}/api/auth-backend/${PROVIDER}/login`,
        },
      ],
    });
  });
});

describe('OIDC sign-in refusals through the server', () => {
  it('says registration is disabled for a new person while sign-up is off', async () => {
    await setRegistration(false);
    const person = newPerson();
    const { client, response } = await signIn(person);
    expect(errorOf(response, client)).toBe('Registration_is_disabled');
    expect(await identitiesOf(person.sub)).toEqual([]);
  });

  it('refuses a replayed callback and a forged state, with no session', async () => {
    await setRegistration(true);
    const { client, callbackPath, back } = await toProviderAndBack(newPerson());
    expect((await client.get(callbackPath)).status).toBe(302);
    client.jar.delete('checkline_session');
    const replayed = await client.get(callbackPath);
    expect(errorOf(replayed, client)).toBe(
      'The_sign-in_expired_or_was_already_used,_please_try_again',
    );

    const attacker = await toProviderAndBack(newPerson());
    const forged = new URLSearchParams(back.search);
    forged.set('state', 'a-state-this-server-never-issued-000000');
    const response = await attacker.client.get(`${back.pathname}?${forged.toString()}`);
    expect(errorOf(response, attacker.client)).toMatch(/^The_sign-in_expired/);
  });

  it('refuses an ID token carrying another nonce', async () => {
    await setRegistration(true);
    const person = { ...newPerson(), nonce: 'nonce-of-some-other-sign-in' };
    const { client, response } = await signIn(person);
    expect(errorOf(response, client)).toBe('The_sign-in_could_not_be_verified,_please_try_again');
    expect(await identitiesOf(person.sub)).toEqual([]);
  });

  it('sends the provider’s error=access_denied to the error page', async () => {
    const { client, back } = await toProviderAndBack(newPerson());
    const state = back.searchParams.get('state')!;
    const response = await client.get(
      `${back.pathname}?error=access_denied&error_description=User+said+no&state=${state}`,
    );
    expect(errorOf(response, client)).toBe('The_sign-in_was_cancelled');
  });

  it('never writes the client secret to the log', () => {
    const lines = server.logLines;
    // The refusals above were logged: the scan reads lines about OIDC sign-ins.
    expect(lines.some((line) => line.includes('OIDC sign-in refused'))).toBe(true);
    expect(lines.filter((line) => line.includes(CLIENT_SECRET))).toEqual([]);
    const basic = Buffer.from(`checkline:${CLIENT_SECRET}`).toString('base64');
    expect(lines.filter((line) => line.includes(basic))).toEqual([]);
  });
});

describe('OIDC sign-in not configured, or its provider down', () => {
  it('is not offered without OIDC_* settings: not listed, and its routes answer 404', async () => {
    const plain = await createTestServer();
    try {
      const listed = await plain.request('/rest/auth/getLoginStrategies');
      expect(await listed.json()).toEqual({
        strategies: [{ id: 'custom', displayName: 'E-mail and password', signInUrl: null }],
      });
      for (const action of ['login', 'callback']) {
        const response = await plain.request(`/api/auth-backend/oidc/${action}`);
        expect(response.status).toBe(404);
      }
    } finally {
      await plain.close();
    }
  });

  it('starts with the provider down, logs why, and sends sign-ins to the error page', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const env = envWith({
      OIDC_ISSUER: `http://127.0.0.1:${closedPort}`,
      OIDC_CLIENT_ID: 'checkline',
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
    });
    const down = await createTestServer({ plugins: createPlugins(env) });
    try {
      const response = await down.request('/api/auth-backend/oidc/login');
      expect(response.status).toBe(302);
      expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe(
        'The_sign-in_provider_is_unavailable,_please_try_again_later',
      );
      const failures = down.logLines.filter((line) => line.includes('OIDC discovery'));
      expect(failures.length).toBeGreaterThan(0);
      expect(JSON.parse(failures[0]!)).toMatchObject({
        level: expect.anything(),
        issuer: `http://127.0.0.1:${closedPort}/`,
      });
      expect(down.logLines.filter((line) => line.includes(CLIENT_SECRET))).toEqual([]);
    } finally {
      await down.close();
    }
  });
});
