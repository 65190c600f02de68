import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

const FRONTEND = 'https://status.example.com';
const LOGIN = '/api/auth-backend/custom/login';
const SIGNUP = '/api/auth-backend/custom/signup';
let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({
    plugins: createPlugins(
      { ...testEnv, FRONTEND_URL: FRONTEND },
      {
        rateLimits: { failedAuthPerIp: false },
      },
    ),
  });
});
afterAll(() => server.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  server.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const sessionOf = (response: Response) =>
  /checkline_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];

/** The raw `error` query value of a redirect to the error page, after checking where it goes. */
function errorParam(response: Response): string {
  expect(response.status).toBe(302);
  const location = response.headers.get('location')!;
  expect(location).toMatch(/^https:\/\/status\.example\.com\/auth\/error\?error=[^&]*$/);
  return location.slice(location.indexOf('=') + 1);
}

/** Calls an auth procedure on the keyed surface with a session cookie. */
async function asSession(session: string, procedure: string, input: unknown = {}) {
  const response = await server.request('/api/auth/', {
    method: 'POST',
    headers: { cookie: session, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
    body: JSON.stringify({ [procedure]: input }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('POST /api/auth-backend/custom/login', () => {
  it('answers 200 {success: true} and a session cookie that then authenticates', async () => {
    const response = await post(LOGIN, { username: testAdmin.email, password: testAdmin.password });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    await expect(response.json()).resolves.toEqual({ success: true });
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    const session = sessionOf(response)!;

    const me = await server.request('/rest/auth/getMe', { headers: { cookie: session } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ kind: 'user', email: testAdmin.email, isAdmin: true });
    const created = await server.request('/api/catalog/', {
      method: 'POST',
      headers: { cookie: session, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
      body: JSON.stringify({ createSystem: { name: 'via-session' } }),
    });
    expect(created.status).toBe(200);
  });

  it('redirects to the error page for wrong credentials, missing fields and non-JSON bodies', async () => {
    const cases: [unknown, string][] = [
      [{ username: testAdmin.email, password: 'not it' }, 'Invalid_username_or_password'],
      [{ username: 'who@example.com', password: 'not it' }, 'Invalid_username_or_password'],
      [{ username: testAdmin.email }, 'Username_and_password_are_required'],
      [{}, 'Username_and_password_are_required'],
      ['username=admin&password=x', 'Invalid_request'],
      ['{"username":', 'Invalid_request'],
    ];
    for (const [body, message] of cases) {
      const response = await post(LOGIN, body);
      expect(errorParam(response), JSON.stringify(body)).toBe(message);
      expect(sessionOf(response)).toBeUndefined();
      expect(await response.text()).toBe('');
    }
  });

  it('URL-encodes the message after turning its spaces into underscores', async () => {
    const response = await post(
      LOGIN,
      { username: 'a', password: 'b' },
      { origin: 'https://evil.example' },
    );
    expect(errorParam(response)).toBe('Sign-in_from_another_site_is_not_allowed');
    const limited = await createTestServer({
      plugins: createPlugins(
        { ...testEnv, FRONTEND_URL: FRONTEND },
        {
          rateLimits: { failedAuthPerIp: { points: 1, durationSeconds: 60 } },
        },
      ),
    });
    try {
      const attempt = () =>
        limited.request(LOGIN, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'x@example.com', password: 'wrong' }),
        });
      await attempt();
      const refused = await attempt();
      expect(errorParam(refused)).toBe('Too_many_failed_attempts%2C_try_again_later');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('never follows a redirect target the caller supplies', async () => {
    const hostile = 'https://evil.example/steal';
    const failed = await post(
      `${LOGIN}?redirect=${encodeURIComponent(hostile)}&next=//evil.example`,
      {
        username: testAdmin.email,
        password: 'wrong',
        redirect: hostile,
        redirectTo: hostile,
        returnUrl: hostile,
      },
    );
    expect(failed.headers.get('location')!.startsWith(`${FRONTEND}/auth/error?`)).toBe(true);
    const succeeded = await post(`${LOGIN}?redirect=${encodeURIComponent(hostile)}`, {
      username: testAdmin.email,
      password: testAdmin.password,
      redirect: hostile,
    });
    expect(succeeded.status).toBe(200);
    expect(succeeded.headers.get('location')).toBeNull();
  });
});

describe('sessions', () => {
  it('refuse cookie-authenticated changes without our Origin or without JSON (CSRF)', async () => {
    const session = sessionOf(
      await post(LOGIN, { username: testAdmin.email, password: testAdmin.password }),
    )!;
    const change = (headers: Record<string, string>) =>
      server.request('/api/catalog/', {
        method: 'POST',
        headers: { cookie: session, ...headers },
        body: JSON.stringify({ createSystem: { name: `csrf-${Math.random()}` } }),
      });
    const noOrigin = await change({ 'content-type': 'application/json' });
    expect(noOrigin.status).toBe(403);
    const foreign = await change({
      'content-type': 'application/json',
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    const form = await change({ 'content-type': 'text/plain', origin: testEnv.BASE_URL });
    expect(form.status).toBe(403);
    const rest = await server.request('/rest/catalog/createSystem', {
      method: 'POST',
      headers: { cookie: session, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'csrf-rest' }),
    });
    expect(rest.status).toBe(403);
    const read = await server.request('/rest/catalog/getSystems', { headers: { cookie: session } });
    expect(read.status).toBe(200);
  });

  it('end at logout; the cookie no longer authenticates', async () => {
    const session = sessionOf(
      await post(LOGIN, { username: testAdmin.email, password: testAdmin.password }),
    )!;
    expect((await asSession(session, 'getMe')).status).toBe(200);
    const logout = await server.request('/api/auth-backend/logout', {
      method: 'POST',
      headers: { cookie: session, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
    });
    expect(logout.status).toBe(200);
    expect(logout.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    const after = await asSession(session, 'getMe');
    expect(after).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  it('are Secure cookies when BASE_URL is https', async () => {
    const secure = await createTestServer({
      plugins: createPlugins({ ...testEnv, BASE_URL: 'https://checkline.example.com' }),
    });
    try {
      const response = await secure.request(LOGIN, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: testAdmin.email, password: testAdmin.password }),
      });
      expect(response.headers.get('set-cookie')).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });
});

describe('sign-up', () => {
  it('redirects with Registration is disabled until an admin allows it', async () => {
    const attempt = () =>
      post(SIGNUP, { email: 'newcomer@example.com', password: 'a long password', name: 'New' });
    expect(errorParam(await attempt())).toBe('Registration_is_disabled');
    const anonymous = await server.request('/rest/auth/getRegistrationStatus');
    expect(await anonymous.json()).toEqual({ allowRegistration: false });

    const admin = sessionOf(
      await post(LOGIN, { username: testAdmin.email, password: testAdmin.password }),
    )!;
    const allowed = await asSession(admin, 'updateRegistrationStatus', { allowRegistration: true });
    expect(allowed).toMatchObject({
      status: 200,
      body: { updateRegistrationStatus: { allowRegistration: true } },
    });
    const created = await attempt();
    expect(created.status).toBe(200);
    expect(await created.json()).toEqual({ success: true });
    // As the document says (below): sign-up sets no session; the user signs in next.
    expect(created.headers.get('set-cookie')).toBeNull();
    const document = (await (
      await server.request('/api/openapi.json', { headers: { cookie: admin } })
    ).json()) as Record<string, any>;
    const signUp = document.paths['/api/auth-backend/custom/signup'].post;
    expect(signUp.responses['200'].headers?.['Set-Cookie']).toBeUndefined();
    expect(signUp.summary).not.toContain('signs them in');
    const { minLength } = signUp.requestBody.content['application/json'].schema.properties
      .password as { minLength: number };
    const short = await post(SIGNUP, {
      email: 'short@example.com',
      password: 'q7#'.repeat(9).slice(0, minLength - 1),
    });
    expect(errorParam(short)).toMatch(/^The_password_must_have_at_least/);
    const justLongEnough = await post(SIGNUP, {
      email: 'exact@example.com',
      password: 'q7#'.repeat(9).slice(0, minLength),
    });
    expect(justLongEnough.status).toBe(200);
    const signedIn = await post(LOGIN, {
      username: 'newcomer@example.com',
      password: 'a long password',
    });
    const me = await asSession(sessionOf(signedIn)!, 'getMe');
    expect(me.body).toMatchObject({
      getMe: { kind: 'user', email: 'newcomer@example.com', isAdmin: false },
    });
    // The same answer for a taken e-mail: sign-up does not tell who has an account.
    const again = await attempt();
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ success: true });
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(created.headers.get('set-cookie')).toBeNull();
    const { body } = await asSession(admin, 'getAuditLog', { action: 'registration.changed' });
    expect(body).toMatchObject({
      getAuditLog: { entries: [{ details: { allowRegistration: true } }] },
    });
  });
});

describe('the password policy', () => {
  it('refuses short and common passwords wherever a password is set', async () => {
    const admin = sessionOf(
      await post(LOGIN, { username: testAdmin.email, password: testAdmin.password }),
    )!;
    await asSession(admin, 'updateRegistrationStatus', { allowRegistration: true });
    for (const password of ['elevenchars', 'password1234', 'Qwerty123456']) {
      const created = await asSession(admin, 'createUser', { email: 'weak@example.com', password });
      expect(created.status, password).toBe(400);
      expect(created.body).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'password' }] });
    }
    const ok = await asSession(admin, 'createUser', {
      email: 'strong@example.com',
      password: 'a sound enough password',
    });
    expect(ok.status).toBe(200);
    const { id } = ok.body.createUser as { id: string };
    const weakened = await asSession(admin, 'updateUser', { id, password: '123456789012' });
    expect(weakened).toMatchObject({ status: 400, body: { issues: [{ path: 'password' }] } });
    const signup = await post(SIGNUP, {
      email: 'weak-signup@example.com',
      password: 'password1234',
    });
    expect(errorParam(signup)).toBe('This_password_is_too_common%3B_choose_another');
  });
});

describe('bootstrap without ADMIN_PASSWORD', () => {
  it('logs a generated admin password exactly once, and it signs in', async () => {
    const generated = await createTestServer({
      plugins: createPlugins({ ...testEnv, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined }),
    });
    try {
      const lines = generated.logLines.filter((line) => line.includes('generated password'));
      expect(lines).toHaveLength(1);
      const password = /generated password (\S+)/.exec(JSON.parse(lines[0]!).msg as string)![1]!;
      const response = await generated.request(LOGIN, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin@checkline.local', password }),
      });
      expect(response.status).toBe(200);
      expect(generated.logLines.filter((line) => line.includes(password))).toHaveLength(1);
    } finally {
      await generated.close();
    }
  });
});
