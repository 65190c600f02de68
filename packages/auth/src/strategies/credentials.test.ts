import { ExtensionPoints } from '@checkline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthTestKit } from '../test-support.ts';
import {
  BASE_URL,
  adminPrincipal,
  jsonPost,
  sessionTokenOf,
  startAuth,
  testAdmin,
} from '../test-support.ts';
import { StrategyRegistry } from './registry.ts';
import { authStrategyExtensionPoint } from './strategy.ts';

const FRONTEND = 'https://app.example.com';
let auth: AuthTestKit;

beforeAll(async () => {
  auth = await startAuth({ frontendUrl: FRONTEND, rateLimits: { failedAuthPerIp: false } });
});
afterAll(() => auth.close());

const login = (body: unknown, headers: Record<string, string> = {}) =>
  auth.route('POST', '/api/auth-backend/custom/login', jsonPost(body, headers));
const signUp = (body: unknown) =>
  auth.route('POST', '/api/auth-backend/custom/signup', jsonPost(body));
const errorOf = (response: Response) => {
  expect(response.status).toBe(302);
  const location = response.headers.get('location')!;
  expect(location.startsWith(`${FRONTEND}/auth/error?error=`)).toBe(true);
  return new URL(location).searchParams.get('error');
};

describe('credential strategy: login', () => {
  it('answers 200 {success: true} with a session cookie for the right password', async () => {
    const response = await login({
      username: testAdmin.email.toUpperCase(),
      password: testAdmin.password,
    });
    expect(response.status).toBe(200);
    await expect(response.json()).resolves.toEqual({ success: true });
    const [cookie, device] = response.headers.getSetCookie();
    expect(cookie).toMatch(
      /^checkline_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/,
    );
    expect(cookie).not.toContain('Secure');
    // The browser is now known to the account: its failures count on their own.
    expect(device).toMatch(/^checkline_device=[^;]+; Path=\/api\/auth-backend; HttpOnly;/);
  });

  it('redirects to the error page for wrong credentials, missing fields and bad bodies', async () => {
    expect(errorOf(await login({ username: testAdmin.email, password: 'wrong' }))).toBe(
      'Invalid_username_or_password',
    );
    expect(errorOf(await login({ username: 'nobody@example.com', password: 'whatever' }))).toBe(
      'Invalid_username_or_password',
    );
    expect(errorOf(await login({ username: testAdmin.email }))).toBe(
      'Username_and_password_are_required',
    );
    expect(errorOf(await login({ username: 1, password: ['x'] }))).toBe(
      'Username_and_password_are_required',
    );
    expect(errorOf(await login('{not json'))).toBe('Invalid_request');
    expect(errorOf(await login('[1, 2]'))).toBe('Invalid_request');
    const form = await auth.route('POST', '/api/auth-backend/custom/login', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=${testAdmin.email}&password=${testAdmin.password}`,
    });
    expect(errorOf(form)).toBe('Invalid_request');
  });

  it('never follows a redirect target the caller supplies', async () => {
    const hostile = {
      redirect: 'https://evil.example',
      returnTo: 'https://evil.example',
      next: '//evil.example',
    };
    const failed = await auth.route(
      'POST',
      '/api/auth-backend/custom/login?redirect=https://evil.example&returnTo=//evil.example',
      jsonPost({ username: testAdmin.email, password: 'wrong', ...hostile }),
    );
    expect(errorOf(failed)).toBe('Invalid_username_or_password');
    const succeeded = await login({ ...testAdmin, username: testAdmin.email, ...hostile });
    expect(succeeded.status).toBe(200);
    expect(succeeded.headers.get('location')).toBeNull();
  });

  it('refuses a sign-in posted from another site', async () => {
    const response = await login(
      { username: testAdmin.email, password: testAdmin.password },
      { origin: 'https://evil.example' },
    );
    expect(errorOf(response)).toBe('Sign-in_from_another_site_is_not_allowed');
    expect(sessionTokenOf(response)).toBeUndefined();
  });

  it('answers 404 for unknown strategies and actions', async () => {
    for (const path of ['/api/auth-backend/nope/login', '/api/auth-backend/custom/nope']) {
      const response = await auth.route('POST', path, jsonPost({}));
      expect(response.status).toBe(404);
    }
    expect((await auth.route('GET', '/api/auth-backend/custom/login')).status).toBe(404);
  });
});

describe('credential strategy: sign-up', () => {
  it('redirects with Registration is disabled while registration is off', async () => {
    const response = await signUp({ email: 'new@example.com', password: 'long enough password' });
    expect(errorOf(response)).toBe('Registration_is_disabled');
    const { users } = await auth.as(adminPrincipal()).getUsers({});
    expect(users.some((user) => user.email === 'new@example.com')).toBe(false);
  });

  it('creates a user with the role users once registration is on, who then signs in', async () => {
    await auth.as(adminPrincipal()).updateRegistrationStatus({ allowRegistration: true });
    const response = await signUp({
      email: 'New@Example.com',
      password: 'long enough password',
      name: 'New',
    });
    expect(response.status).toBe(200);
    await expect(response.json()).resolves.toEqual({ success: true });
    expect(sessionTokenOf(response)).toBeUndefined();
    const signedIn = await login({ username: 'new@example.com', password: 'long enough password' });
    const token = sessionTokenOf(signedIn)!;
    const principal = await auth.resolve(
      new Request(BASE_URL, { headers: { cookie: `checkline_session=${token}` } }),
    );
    expect(principal).toMatchObject({ kind: 'user', isAdmin: false });
    await auth.as(adminPrincipal()).updateRegistrationStatus({ allowRegistration: false });
  });

  it('answers a taken e-mail exactly as a new one, and leaves that account alone', async () => {
    await auth.as(adminPrincipal()).updateRegistrationStatus({ allowRegistration: true });
    const fresh = await signUp({ email: 'first@example.com', password: 'first sound password' });
    const taken = await signUp({ email: 'FIRST@example.com', password: 'other sound password' });
    expect(taken.status).toBe(fresh.status);
    expect(await taken.text()).toBe(await fresh.text());
    expect(taken.headers.get('set-cookie')).toBe(fresh.headers.get('set-cookie'));
    const retaken = await login({
      username: 'first@example.com',
      password: 'other sound password',
    });
    expect(errorOf(retaken)).toBe('Invalid_username_or_password');
    const { users } = await auth.as(adminPrincipal()).getUsers({});
    expect(users.filter((user) => user.email === 'first@example.com')).toHaveLength(1);
    await auth.as(adminPrincipal()).updateRegistrationStatus({ allowRegistration: false });
  });

  it('refuses a short or common password, and a bad e-mail', async () => {
    await auth.as(adminPrincipal()).updateRegistrationStatus({ allowRegistration: true });
    expect(errorOf(await signUp({ email: 'weak@example.com', password: 'short' }))).toBe(
      'The_password_must_have_at_least_12_characters',
    );
    expect(errorOf(await signUp({ email: 'weak@example.com', password: 'qwerty123456' }))).toBe(
      'This_password_is_too_common;_choose_another',
    );
    expect(errorOf(await signUp({ email: 'not-an-email', password: 'long enough password' }))).toBe(
      'A_valid_e-mail_address_and_a_password_are_required',
    );
    const { users } = await auth.as(adminPrincipal()).getUsers({});
    expect(users.some((user) => user.email === 'weak@example.com')).toBe(false);
    await auth.as(adminPrincipal()).updateRegistrationStatus({ allowRegistration: false });
  });
});

describe('strategy extension point', () => {
  it('qualifies strategies by their plugin and refuses a clashing path segment', () => {
    const registry = new StrategyRegistry();
    const points = new ExtensionPoints();
    points.provide(authStrategyExtensionPoint, 'auth', (caller) => ({
      register: (strategy) => registry.register(caller, strategy),
    }));
    const strategy = { id: 'github', displayName: 'GitHub', actions: {} };
    points.get(authStrategyExtensionPoint, 'auth-github').register(strategy);
    expect(registry.list().map((entry) => entry.qualifiedId)).toEqual(['auth-github.github']);
    expect(() => points.get(authStrategyExtensionPoint, 'other').register(strategy)).toThrow(
      /clashes with auth-github.github/,
    );
    registry.freeze();
    expect(() => registry.register('late', { ...strategy, id: 'late' })).toThrow(/after start-up/);
  });

  it('turns anything a strategy throws into the error page, never JSON', async () => {
    const broken = await startAuth({
      frontendUrl: FRONTEND,
      strategies: [
        {
          id: 'broken',
          displayName: 'Broken',
          actions: {
            login: {
              method: 'POST',
              handle: async () => {
                throw new Error('connection refused to 10.0.0.5:5432 password=hunter2');
              },
            },
          },
        },
      ],
    });
    try {
      const response = await broken.route('POST', '/api/auth-backend/broken/login', jsonPost({}));
      expect(errorOf(response)).toBe('Sign-in_failed,_please_try_again');
    } finally {
      await broken.close();
    }
  });
});
