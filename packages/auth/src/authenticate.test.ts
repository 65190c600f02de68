import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications } from './db/schema.ts';
import type { AuthTestKit } from './test-support.ts';
import {
  BASE_URL,
  adminPrincipal,
  demoAccess,
  jsonPost,
  sessionTokenOf,
  startAuth,
  testAdmin,
} from './test-support.ts';

let auth: AuthTestKit;
const admin = adminPrincipal();

beforeAll(async () => {
  auth = await startAuth({ rateLimits: { failedAuthPerIp: false, callsPerKey: false } });
});
afterAll(() => auth.close());

const bearer = (key: string, init: RequestInit = {}) =>
  new Request(`${BASE_URL}/api/demo/`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...init.headers },
  });

const newApplication = async (name: string, extra: { expiresAt?: string } = {}) =>
  auth.as(admin).createApplication({ name, ...extra });

const roleNamed = async (name: string) =>
  (await auth.as(admin).getRoles({})).roles.find((role) => role.name === name)!;

describe('API keys', () => {
  it('resolve to the application with the rules of its roles', async () => {
    const { application, secret } = await newApplication('resolver');
    await expect(auth.resolve(bearer(secret))).resolves.toEqual({
      kind: 'application',
      id: application.id,
      accessRules: [],
      teamIds: [],
      isAdmin: false,
    });
    const readers = await auth
      .as(admin)
      .createRole({ name: 'key-readers', accessRules: [demoAccess.read.id] });
    await auth.as(admin).updateApplication({ id: application.id, roleIds: [readers.id] });
    await expect(auth.resolve(bearer(secret))).resolves.toMatchObject({
      accessRules: ['demo.demo.read'],
    });
    await auth.as(admin).updateRole({ id: readers.id, accessRules: [demoAccess.manage.id] });
    await expect(auth.resolve(bearer(secret))).resolves.toMatchObject({
      accessRules: ['demo.demo.manage'],
    });
  });

  it('make an application holding the admin role an admin with every rule', async () => {
    const { application, secret } = await newApplication('superapp');
    await auth.as(admin).updateApplication({
      id: application.id,
      roleIds: [(await roleNamed('admin')).id],
    });
    const principal = await auth.resolve(bearer(secret));
    expect(principal.isAdmin).toBe(true);
    expect(principal.accessRules).toContain('demo.demo.manage');
    expect(principal.accessRules).toContain('auth.roles.manage');
  });

  it('are refused when malformed, unknown, revoked or expired', async () => {
    const { application, secret } = await newApplication('refused');
    const unknown = secret.replace(application.id, '7d0c3f2e-1111-4a0c-9d8e-2f4f8e8c1a11');
    const wrongSecret = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const expired = await newApplication('expired');
    // No caller can give a past expiry; a key whose expiry has passed looks like this.
    await auth.db
      .update(applications)
      .set({ expiresAt: new Date('2001-01-01T00:00:00.000Z') })
      .where(eq(applications.id, expired.application.id));
    for (const key of [
      '',
      'ck_',
      'not-a-key',
      `${secret}!`,
      unknown,
      wrongSecret,
      expired.secret,
    ]) {
      await expect(auth.resolve(bearer(key)), key).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
        message: 'Invalid or expired API key',
      });
    }
    for (const header of ['Basic abc', `Token ${secret}`, secret]) {
      await expect(
        auth.resolve(new Request(BASE_URL, { headers: { authorization: header } })),
      ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
    await auth.resolve(bearer(secret));
    await auth.as(admin).deleteApplication({ id: application.id });
    await expect(auth.resolve(bearer(secret))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('stop working at once when rotated without grace, and after the grace otherwise', async () => {
    const { application, secret } = await newApplication('rotated');
    await auth.resolve(bearer(secret));
    const { secret: second } = await auth
      .as(admin)
      .regenerateApplicationSecret({ id: application.id });
    await expect(auth.resolve(bearer(secret))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(auth.resolve(bearer(second))).resolves.toMatchObject({ id: application.id });

    const { secret: third } = await auth
      .as(admin)
      .regenerateApplicationSecret({ id: application.id, gracePeriodSeconds: 60 });
    await expect(auth.resolve(bearer(second))).resolves.toMatchObject({ id: application.id });
    await expect(auth.resolve(bearer(third))).resolves.toMatchObject({ id: application.id });
    await auth.db
      .update(applications)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(applications.id, application.id));
    await auth.as(admin).updateApplication({ id: application.id });
    await expect(auth.resolve(bearer(second))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(auth.resolve(bearer(third))).resolves.toMatchObject({ id: application.id });
  });

  it('are kept in memory until this process changes the application', async () => {
    const { application, secret } = await newApplication('cached');
    await auth.resolve(bearer(secret));
    // Behind the plugin's back, so only the cache can still accept the key.
    await auth.db
      .update(applications)
      .set({ secretHash: 'f'.repeat(64) })
      .where(eq(applications.id, application.id));
    await expect(auth.resolve(bearer(secret))).resolves.toMatchObject({ id: application.id });
    await auth.as(admin).updateApplication({ id: application.id, description: 'changed' });
    await expect(auth.resolve(bearer(secret))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('cannot be given an expiry in the past, on creation or later', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    await expect(newApplication('born-expired', { expiresAt: past })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    const { application, secret } = await newApplication('expiring');
    await expect(
      auth.as(admin).updateApplication({ id: application.id, expiresAt: past }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(auth.resolve(bearer(secret))).resolves.toMatchObject({ id: application.id });
  });

  it('record when they were last used, at most once a minute', async () => {
    const { application, secret } = await newApplication('touched');
    await auth.resolve(bearer(secret));
    // stop() waits for the lastUsedAt writes in flight.
    await auth.plugin.stop!();
    const [first] = await auth.db
      .select()
      .from(applications)
      .where(eq(applications.id, application.id));
    expect(first!.lastUsedAt).toBeInstanceOf(Date);
    await auth.resolve(bearer(secret));
    await auth.plugin.stop!();
    const [second] = await auth.db
      .select()
      .from(applications)
      .where(eq(applications.id, application.id));
    expect(second!.lastUsedAt).toEqual(first!.lastUsedAt);
  });

  it('refuse every string that is not a valid key, and never throw anything else', async () => {
    const { secret } = await newApplication('property');
    // Control characters cannot travel in a header at all.
    const headerSafe = fc
      .string({ unit: 'binary-ascii', maxLength: 200 })
      .map((value) => [...value].filter((char) => char >= ' ' && char !== '\x7f').join(''));
    const mutated = fc
      .tuple(fc.nat({ max: secret.length - 1 }), fc.constantFrom(...'Aa0_-!'))
      .map(([at, char]) => `${secret.slice(0, at)}${char}${secret.slice(at + 1)}`)
      .filter((key) => key !== secret);
    await fc.assert(
      fc.asyncProperty(fc.oneof(headerSafe, mutated), async (key) => {
        const outcome = await auth.resolve(bearer(key)).then(
          () => 'resolved',
          (error: { code?: string }) => error.code,
        );
        expect(outcome).toBe('UNAUTHORIZED');
      }),
      { numRuns: 200 },
    );
  });
});

describe('sessions', () => {
  const login = async () => {
    const response = await auth.route(
      'POST',
      '/api/auth-backend/custom/login',
      jsonPost({ username: testAdmin.email, password: testAdmin.password }),
    );
    return sessionTokenOf(response)!;
  };
  const withCookie = (token: string, init: RequestInit = {}) =>
    new Request(`${BASE_URL}/api/auth/`, {
      ...init,
      headers: { cookie: `theme=dark; checkline_session=${token}`, ...init.headers },
    });

  it('resolve the signed-in user, admin included', async () => {
    const token = await login();
    const principal = await auth.resolve(withCookie(token));
    expect(principal).toMatchObject({ kind: 'user', isAdmin: true });
    expect(principal.accessRules).toContain('auth.users.manage');
  });

  it('require JSON from our own origin for changes (CSRF)', async () => {
    const token = await login();
    const post = (headers: Record<string, string>) =>
      auth.resolve(withCookie(token, { method: 'POST', headers, body: '{}' }));
    await expect(post({ 'content-type': 'application/json' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(
      post({ 'content-type': 'application/json', origin: 'https://evil.example' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(post({ 'content-type': 'text/plain', origin: BASE_URL })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(
      post({ 'content-type': 'application/json; charset=utf-8', origin: BASE_URL }),
    ).resolves.toMatchObject({ kind: 'user' });
    await expect(auth.resolve(withCookie(token))).resolves.toMatchObject({ kind: 'user' });
  });

  it('end at logout, and unknown or malformed tokens are refused', async () => {
    const token = await login();
    await auth.resolve(withCookie(token));
    const response = await auth.route('POST', '/api/auth-backend/logout', {
      headers: {
        cookie: `checkline_session=${token}`,
        origin: BASE_URL,
        'content-type': 'application/json',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/checkline_session=;.*Max-Age=0/);
    for (const bad of [token, 'x', 'A'.repeat(43)]) {
      await expect(auth.resolve(withCookie(bad))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('end when the user changes their password', async () => {
    const user = await auth
      .as(admin)
      .createUser({ email: 'pat@example.com', password: 'first password' });
    const response = await auth.route(
      'POST',
      '/api/auth-backend/custom/login',
      jsonPost({ username: 'pat@example.com', password: 'first password' }),
    );
    const token = sessionTokenOf(response)!;
    await expect(auth.resolve(withCookie(token))).resolves.toMatchObject({ id: user.id });
    await auth.as(admin).updateUser({ id: user.id, password: 'second password' });
    await expect(auth.resolve(withCookie(token))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('anonymous callers', () => {
  it('hold the rules of the anonymous role, which signed-in callers hold too', async () => {
    await expect(auth.resolve(new Request(BASE_URL))).resolves.toEqual({
      kind: 'anonymous',
      id: null,
      accessRules: [],
      teamIds: [],
      isAdmin: false,
    });
    const anonymousRole = await roleNamed('anonymous');
    await auth.as(admin).updateRole({ id: anonymousRole.id, accessRules: [demoAccess.read.id] });
    await expect(auth.resolve(new Request(BASE_URL))).resolves.toMatchObject({
      kind: 'anonymous',
      accessRules: ['demo.demo.read'],
    });
    const { secret } = await newApplication('inherits-anonymous');
    await expect(auth.resolve(bearer(secret))).resolves.toMatchObject({
      accessRules: ['demo.demo.read'],
    });
    await auth.as(admin).updateRole({ id: anonymousRole.id, accessRules: [] });
  });
});

describe('rate limits', () => {
  it('refuse an address with too many failed authentications, telling when to retry, but not its valid keys', async () => {
    const limited = await startAuth({
      rateLimits: { failedAuthPerIp: { points: 3, durationSeconds: 60 } },
    });
    try {
      const { secret } = await limited.as(admin).createApplication({ name: 'limited' });
      const from = (ip: string, key: string) =>
        limited.resolve(bearer(key, { headers: { 'x-checkline-client-ip': ip } }));
      for (let attempt = 0; attempt < 3; attempt++) {
        await expect(from('203.0.113.7', 'ck_wrong')).rejects.toMatchObject({
          code: 'UNAUTHORIZED',
        });
      }
      const refused = from('203.0.113.7', 'ck_wrong');
      await expect(refused).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429 });
      const error = (await refused.catch((caught: unknown) => caught)) as {
        data: { retryAfter: number };
      };
      expect(error.data.retryAfter).toBeGreaterThan(0);
      expect(error.data.retryAfter).toBeLessThanOrEqual(60);
      // A valid key is never refused for its address's failures.
      await expect(from('203.0.113.7', secret)).resolves.toMatchObject({ kind: 'application' });
      await expect(from('198.51.100.1', 'ck_wrong')).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
      });
    } finally {
      await limited.close();
    }
  });

  it('limit the calls of one key', async () => {
    const limited = await startAuth({
      rateLimits: { callsPerKey: { points: 2, durationSeconds: 60 } },
    });
    try {
      const { secret } = await limited.as(admin).createApplication({ name: 'chatty' });
      const other = await limited.as(admin).createApplication({ name: 'quiet' });
      await limited.resolve(bearer(secret));
      await limited.resolve(bearer(secret));
      await expect(limited.resolve(bearer(secret))).rejects.toMatchObject({
        code: 'TOO_MANY_REQUESTS',
        data: { retryAfter: expect.any(Number) },
      });
      await expect(limited.resolve(bearer(other.secret))).resolves.toMatchObject({
        kind: 'application',
      });
    } finally {
      await limited.close();
    }
  });
});
