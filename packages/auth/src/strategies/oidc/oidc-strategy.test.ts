import { testPrincipal } from '@checkline/core/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { identities, loginStates, users } from '../../db/schema.ts';
import { setRegistrationAllowed } from '../../registration.ts';
import type { AuthTestKit } from '../../test-support.ts';
import { sessionTokenOf, startAuth, testAdmin } from '../../test-support.ts';
import type { TestIssuer } from '../../testing.ts';
import { startTestIssuer } from '../../testing.ts';

const FRONTEND = 'https://app.example.com';
const CALLBACK = 'http://localhost:3000/api/auth-backend/acme/callback';
const CLIENT = { clientId: 'checkline', clientSecret: 'oidc-client-secret-value' };

let issuer: TestIssuer;
let auth: AuthTestKit;
let people = 0;

beforeAll(async () => {
  issuer = await startTestIssuer();
  auth = await startAuth({
    frontendUrl: FRONTEND,
    rateLimits: { failedAuthPerIp: false },
    oidc: { issuer: issuer.url, ...CLIENT, name: 'acme', displayName: 'Acme ID' },
  });
});
afterAll(async () => {
  await auth?.close();
  await issuer?.close();
});
beforeEach(() => setRegistrationAllowed(auth.db, true));

const newPerson = () => {
  const n = ++people;
  return { sub: `acme-${n}`, email: `person-${n}@example.com`, email_verified: true };
};

/** Starts a sign-in: the 302 to the provider and the cookie this browser holds. */
async function start(returnTo?: string) {
  const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
  const response = await auth.route('GET', `/api/auth-backend/acme/login${query}`);
  expect(response.status).toBe(302);
  const cookie = /^(checkline_login_acme=[^;]+)/.exec(response.headers.get('set-cookie') ?? '');
  return { location: new URL(response.headers.get('location')!), cookie: cookie?.[1] ?? '' };
}

/** The provider's redirect back, delivered to our callback with the browser's cookie. */
const callback = (back: URL, cookie: string) =>
  auth.route('GET', `${back.pathname}${back.search}`, { headers: cookie ? { cookie } : {} });

/** A whole sign-in through the provider, as one browser. */
async function signIn(returnTo?: string) {
  const { location, cookie } = await start(returnTo);
  return callback(await issuer.authorize(location.href), cookie);
}

const errorOf = (response: Response) => {
  expect(response.status).toBe(302);
  const location = response.headers.get('location')!;
  expect(location.startsWith(`${FRONTEND}/auth/error?error=`)).toBe(true);
  expect(sessionTokenOf(response) ?? '').toBe('');
  return new URL(location).searchParams.get('error');
};

const identitiesOf = (subject: string) =>
  auth.db.select().from(identities).where(eq(identities.subject, subject));
const userByEmail = async (email: string) =>
  (await auth.db.select().from(users).where(eq(users.email, email)))[0];

describe('OIDC strategy: signing in', () => {
  it('sends the browser to the provider with PKCE S256, state, nonce and the exact callback', async () => {
    const { location, cookie } = await start('/systems?tab=checks');
    expect(location.origin + location.pathname).toBe(`${issuer.url}/authorize`);
    const query = Object.fromEntries(location.searchParams);
    expect(query).toMatchObject({
      response_type: 'code',
      client_id: 'checkline',
      redirect_uri: CALLBACK,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(query.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.state).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(query.nonce).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(cookie).toBe(`checkline_login_acme=${query.state}`);
    const [stored] = await auth.db.select().from(loginStates);
    expect(stored?.stateHash).not.toContain(query.state);
  });

  it('creates a new user with the verified e-mail, records the identity and lands on the return path', async () => {
    const person = { ...newPerson(), name: 'Ada Lovelace' };
    issuer.signInAs(person);
    const response = await signIn('/systems/42?tab=checks');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${FRONTEND}/systems/42?tab=checks`);
    const token = sessionTokenOf(response)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.headers.get('set-cookie')).toContain('checkline_login_acme=; Path=');

    const user = await userByEmail(person.email);
    expect(user).toMatchObject({ name: 'Ada Lovelace', passwordHash: null });
    expect(await identitiesOf(person.sub)).toMatchObject([
      { userId: user!.id, provider: 'acme', email: person.email },
    ]);
    const principal = await auth.resolve(
      new Request('http://localhost:3000/', { headers: { cookie: `checkline_session=${token}` } }),
    );
    expect(principal).toMatchObject({ kind: 'user', id: user!.id });
  });

  it('exchanges the code with the PKCE verifier and the client secret, never in the URL', async () => {
    issuer.signInAs(newPerson());
    const before = issuer.tokenRequests.length;
    const { location, cookie } = await start();
    expect(location.href).not.toContain(CLIENT.clientSecret);
    await callback(await issuer.authorize(location.href), cookie);
    const exchange = issuer.tokenRequests[before]!;
    expect(exchange.body).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: CALLBACK,
    });
    expect(exchange.body.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // client_secret_basic: each part form-encoded, then base64 (RFC 6749 2.3.1).
    const basic = Buffer.from(exchange.authorization!.replace(/^Basic /, ''), 'base64').toString();
    const [id, secret] = basic.split(':').map((part) => decodeURIComponent(part));
    expect([id, secret]).toEqual([CLIENT.clientId, CLIENT.clientSecret]);
  });

  it('matches a person by the provider’s subject first, keeping the latest verified e-mail', async () => {
    const person = newPerson();
    issuer.signInAs(person);
    await signIn();
    const user = await userByEmail(person.email);
    issuer.signInAs({ ...person, email: 'renamed@example.com' });
    const again = await signIn();
    expect(again.headers.get('location')).toBe(`${FRONTEND}/`);
    expect(await identitiesOf(person.sub)).toMatchObject([
      { userId: user!.id, email: 'renamed@example.com' },
    ]);
    expect(await userByEmail('renamed@example.com')).toBeUndefined();
  });

  it('reads the e-mail from userinfo when the ID token has none', async () => {
    const person = newPerson();
    issuer.signInAs(person, { emailInUserInfoOnly: true });
    const response = await signIn();
    expect(response.headers.get('location')).toBe(`${FRONTEND}/`);
    expect(await identitiesOf(person.sub)).toMatchObject([{ email: person.email }]);
    expect(await userByEmail(person.email)).toBeDefined();
  });

  it('matches an existing user by verified e-mail, even with registration off', async () => {
    await setRegistrationAllowed(auth.db, false);
    issuer.signInAs({
      sub: 'acme-admin',
      email: testAdmin.email.toUpperCase(),
      email_verified: true,
    });
    const response = await signIn();
    expect(response.headers.get('location')).toBe(`${FRONTEND}/`);
    const admin = await userByEmail(testAdmin.email);
    expect(await identitiesOf('acme-admin')).toMatchObject([
      { userId: admin!.id, email: testAdmin.email },
    ]);
  });
});

describe('OIDC strategy: offered', () => {
  it('is listed for the sign-in page with the URL that begins it', async () => {
    const anonymous = testPrincipal([], { kind: 'anonymous', id: null as never });
    const { strategies } = await auth.as(anonymous).getLoginStrategies({});
    expect(strategies).toContainEqual({
      id: 'acme',
      displayName: 'Acme ID',
      signInUrl: 'http://localhost:3000/api/auth-backend/acme/login',
    });
  });
});

describe('OIDC strategy: refusals', () => {
  it('says registration is disabled, and creates nothing, for a new person while sign-up is off', async () => {
    await setRegistrationAllowed(auth.db, false);
    const person = newPerson();
    issuer.signInAs(person);
    expect(errorOf(await signIn())).toBe('Registration_is_disabled');
    expect(await userByEmail(person.email)).toBeUndefined();
    expect(await identitiesOf(person.sub)).toEqual([]);
  });

  it('does not use an unverified e-mail to match or create an account', async () => {
    issuer.signInAs({ sub: 'acme-unverified', email: testAdmin.email, email_verified: false });
    expect(errorOf(await signIn())).toBe(
      'Your_account_at_the_sign-in_provider_has_no_verified_e-mail_address',
    );
    expect(await identitiesOf('acme-unverified')).toEqual([]);
    issuer.signInAs({ sub: 'acme-unverified', email: 'fresh@example.com' });
    await signIn();
    expect(await userByEmail('fresh@example.com')).toBeUndefined();
  });

  it('refuses a replayed state: the second callback finds it spent', async () => {
    issuer.signInAs(newPerson());
    const { location, cookie } = await start();
    const back = await issuer.authorize(location.href);
    expect((await callback(back, cookie)).status).toBe(302);
    expect(errorOf(await callback(back, cookie))).toBe(
      'The_sign-in_expired_or_was_already_used,_please_try_again',
    );
  });

  it('refuses a forged state, a missing state and a callback in a browser that did not start it', async () => {
    issuer.signInAs(newPerson());
    const { location, cookie } = await start();
    const back = await issuer.authorize(location.href);
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state-value-aaaaaaaaaaaaaaaaaaaa');
    expect(
      errorOf(
        await callback(forged, 'checkline_login_acme=forged-state-value-aaaaaaaaaaaaaaaaaaaa'),
      ),
    ).toBe('The_sign-in_expired_or_was_already_used,_please_try_again');
    const stateless = new URL(back);
    stateless.searchParams.delete('state');
    expect(errorOf(await callback(stateless, cookie))).toMatch(/^The_sign-in_expired/);
    // The real state, planted in another browser (login CSRF): that browser has no cookie.
    expect(errorOf(await callback(back, ''))).toMatch(/^The_sign-in_expired/);
    // And it is spent now: the browser that started it cannot finish it either.
    expect(errorOf(await callback(back, cookie))).toMatch(/^The_sign-in_expired/);
  });

  it('refuses an ID token with another nonce', async () => {
    const person = { ...newPerson(), nonce: 'a-nonce-of-another-sign-in' };
    issuer.signInAs(person);
    expect(errorOf(await signIn())).toBe('The_sign-in_could_not_be_verified,_please_try_again');
    expect(await userByEmail(person.email)).toBeUndefined();
  });

  it('sends a provider’s error=access_denied to the error page', async () => {
    const { location, cookie } = await start();
    const state = location.searchParams.get('state')!;
    const denied = new URL(`${CALLBACK}?error=access_denied&state=${state}`);
    expect(errorOf(await callback(denied, cookie))).toBe('The_sign-in_was_cancelled');
  });

  it('refuses an absolute or protocol-relative return path before leaving for the provider', async () => {
    for (const returnTo of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const response = await auth.route(
        'GET',
        `/api/auth-backend/acme/login?returnTo=${encodeURIComponent(returnTo)}`,
      );
      expect(errorOf(response)).toBe('Invalid_return_path');
    }
  });
});
