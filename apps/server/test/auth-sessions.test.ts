import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

let server: TestServer;
let adminCookie: string;

beforeAll(async () => {
  server = await createTestServer({
    plugins: createPlugins(testEnv, { rateLimits: { failedAuthPerIp: false } }),
  });
  adminCookie = (await server.adminSession()).cookie;
});
afterAll(() => server.close());

const cookieOf = (response: Response) =>
  /checkline_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];

async function login(username: string, password: string, cookie?: string) {
  return server.request('/api/auth-backend/custom/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie && { cookie }) },
    body: JSON.stringify({ username, password }),
  });
}

/** POST /api/auth/ with the session cookie, as a browser on our own origin sends it. */
async function withSession(cookie: string, body: unknown) {
  const response = await server.request('/api/auth/', {
    method: 'POST',
    headers: { cookie, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const getMe = async (cookie: string) => (await withSession(cookie, { getMe: {} })).status;

async function newPerson(email: string, password = 'first sound password') {
  const created = await withSession(adminCookie, { createUser: { email, password } });
  expect(created.status).toBe(200);
  const response = await login(email, password);
  expect(response.status).toBe(200);
  return cookieOf(response)!;
}

describe('application expiry', () => {
  it('refuses an expiresAt in the past on create and on update, and takes one in the future', async () => {
    const past = '2020-01-01T00:00:00.000Z';
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const created = await withSession(adminCookie, {
      createApplication: { name: 'from-the-past', expiresAt: past },
    });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      code: 'BAD_REQUEST',
      issues: [{ path: 'expiresAt', message: expect.stringMatching(/future/) }],
    });
    const ok = await withSession(adminCookie, {
      createApplication: { name: 'until-tomorrow', expiresAt: future },
    });
    expect(ok.status).toBe(200);
    const { id } = (ok.body.createApplication as { application: { id: string } }).application;
    const updated = await withSession(adminCookie, { updateApplication: { id, expiresAt: past } });
    expect(updated.status).toBe(400);
    const cleared = await withSession(adminCookie, { updateApplication: { id, expiresAt: null } });
    expect(cleared.status).toBe(200);
  });
});

describe('signing in again', () => {
  it('ends the session the client presented', async () => {
    const first = await newPerson('twice@example.com');
    const again = await login('twice@example.com', 'first sound password', first);
    expect(again.status).toBe(200);
    const second = cookieOf(again)!;
    expect(second).not.toBe(first);
    expect(await getMe(first)).toBe(401);
    expect(await getMe(second)).toBe(200);
  });
});

describe('changeMyPassword', () => {
  it('checks the current password, applies the policy, and ends every other session', async () => {
    const email = 'changer@example.com';
    const current = await newPerson(email);
    const other = cookieOf(await login(email, 'first sound password'))!;
    const change = (input: unknown) => withSession(current, { changeMyPassword: input });

    const wrong = await change({
      currentPassword: 'not my password',
      newPassword: 'a new sound password',
    });
    expect(wrong).toMatchObject({
      status: 400,
      body: { message: 'The current password is not correct' },
    });
    const short = await change({ currentPassword: 'first sound password', newPassword: 'short' });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toMatch(/at least 12 characters/);
    const common = await change({
      currentPassword: 'first sound password',
      newPassword: 'password1234',
    });
    expect(common.status).toBe(400);
    expect(JSON.stringify(common.body)).toMatch(/too common/);
    expect(await getMe(other)).toBe(200);

    const changed = await change({
      currentPassword: 'first sound password',
      newPassword: 'a new sound password',
    });
    expect(changed).toMatchObject({ status: 200, body: { changeMyPassword: { changed: true } } });
    expect(await getMe(current)).toBe(200);
    expect(await getMe(other)).toBe(401);
    expect((await login(email, 'first sound password')).status).toBe(302);
    expect((await login(email, 'a new sound password')).status).toBe(200);

    const audit = await withSession(adminCookie, {
      getAuditLog: { action: 'user.password_changed' },
    });
    const entries = (audit.body.getAuditLog as { entries: unknown[] }).entries;
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries)).not.toMatch(/sound password/);
    expect(server.logLines.join('\n')).not.toMatch(/sound password/);
  });

  it('is for people only: an application key cannot call it', async () => {
    const created = await withSession(adminCookie, { createApplication: { name: 'not-a-person' } });
    const { secret } = created.body.createApplication as { secret: string };
    const response = await server.keyed(
      'auth',
      { changeMyPassword: { currentPassword: 'x', newPassword: 'a new sound password' } },
      secret,
    );
    expect(response.status).toBe(403);
  });

  it('keeps the test admin able to sign in', async () => {
    expect((await login(testAdmin.email, testAdmin.password)).status).toBe(200);
  });
});
