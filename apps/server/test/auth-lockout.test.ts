import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 19 item 6 over HTTP: wrong passwords for an account from a few addresses locked its
 * right password out from every address, admin included. Now a browser that signed in to the
 * account before (its device cookie) is counted on its own; other clients count per (account,
 * address) and per account. Addresses come through a trusted proxy's X-Forwarded-For. The
 * per-address budget (all accounts, all credentials) is off here so only these budgets count.
 */
let server: TestServer;
let admin: { cookie: string; origin: string };

const ACCOUNT_LIMIT = 30;
const ACCOUNT_ADDRESS_LIMIT = 20;
const DEVICE_LIMIT = 5;
const TOO_MANY = 'Too many failed attempts, try again later';
const INVALID = 'Invalid username or password';

beforeAll(async () => {
  server = await createTestServer({
    plugins: createPlugins(
      { ...testEnv, TRUST_PROXY: true },
      {
        rateLimits: {
          failedAuthPerIp: false,
          failedLoginsPerAccount: { points: ACCOUNT_LIMIT, durationSeconds: 3_600 },
          failedLoginsPerAccountAndAddress: {
            points: ACCOUNT_ADDRESS_LIMIT,
            durationSeconds: 3_600,
          },
          failedLoginsPerDevice: { points: DEVICE_LIMIT, durationSeconds: 3_600 },
        },
      },
    ),
  });
  admin = await server.adminSession();
});
afterAll(() => server.close());

interface Client {
  address: string;
  /** The `checkline_device=...` pair this browser holds, if any. */
  device?: string;
}

const deviceOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => /^checkline_device=[^;]+/.exec(cookie)?.[0])
    .find((pair) => pair !== undefined);

async function login(client: Client, username: string, password: string) {
  const response = await server.request('/api/auth-backend/custom/login', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': client.address,
      ...(client.device && { cookie: client.device }),
    },
    body: JSON.stringify({ username, password }),
  });
  const location = response.headers.get('location');
  const error = location && new URL(location).searchParams.get('error')?.replaceAll('_', ' ');
  return { status: response.status, error, device: deviceOf(response), response };
}

/** A browser at `address` that has just signed in to the account: it holds its device cookie. */
async function knownBrowser(address: string, username: string, password: string) {
  const signedIn = await login({ address }, username, password);
  expect(signedIn.status).toBe(200);
  expect(signedIn.device).toBeDefined();
  return { address, device: signedIn.device! };
}

let users = 0;
async function newAccount() {
  const email = `lockout-${++users}@example.com`;
  const password = `the ${users} owner sound password`;
  const response = await server.request('/api/auth/', {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ createUser: { email, password } }),
  });
  expect(response.status).toBe(200);
  return { email, password };
}

/** `count` wrong passwords for `username` from `client`; the errors the sign-in page shows. */
async function guess(client: Client, username: string, count: number) {
  const errors: (string | null | undefined)[] = [];
  for (let attempt = 0; attempt < count; attempt++) {
    errors.push((await login(client, username, `wrong guess ${attempt}`)).error);
  }
  return errors;
}

describe('the lock-out attack', () => {
  it('from two addresses locks out new clients, but not a browser the admin signed in with before', async () => {
    const owner = await knownBrowser('198.51.100.10', testAdmin.email, testAdmin.password);
    const errors = [
      ...(await guess({ address: '203.0.113.1' }, testAdmin.email, 16)),
      ...(await guess({ address: '203.0.113.2' }, testAdmin.email, 16)),
    ];
    expect(errors.slice(0, ACCOUNT_LIMIT)).toEqual(Array(ACCOUNT_LIMIT).fill(INVALID));
    expect(errors.slice(ACCOUNT_LIMIT)).toEqual([TOO_MANY, TOO_MANY]);

    const newDevice = await login(
      { address: '198.51.100.20' },
      testAdmin.email,
      testAdmin.password,
    );
    expect(newDevice.error).toBe(TOO_MANY);
    expect(newDevice.response.headers.get('retry-after')).toMatch(/^\d+$/);

    const known = await login(owner, testAdmin.email, testAdmin.password);
    expect(known.status).toBe(200);
    expect(known.response.headers.get('set-cookie')).toMatch(/checkline_session=/);
    // Even from an address the attacker used, the owner's browser gets in.
    const sameAddress = await login(
      { ...owner, address: '203.0.113.1' },
      testAdmin.email,
      testAdmin.password,
    );
    expect(sameAddress.status).toBe(200);
  });

  it('sets the device cookie HttpOnly, for the sign-in routes only', async () => {
    const { email, password } = await newAccount();
    const signedIn = await login({ address: '198.51.100.30' }, email, password);
    const cookie = signedIn.response.headers
      .getSetCookie()
      .find((value) => value.startsWith('checkline_device='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Path=\/api\/auth-backend;/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toContain(email);
    const failed = await login({ address: '198.51.100.30' }, email, 'a wrong password');
    expect(failed.device).toBeUndefined();
  });
});

describe('budgets of clients unknown to the account', () => {
  it('count per (account, address): that address is refused, another still signs in', async () => {
    const { email, password } = await newAccount();
    const errors = await guess({ address: '203.0.113.50' }, email, ACCOUNT_ADDRESS_LIMIT);
    expect(errors).toEqual(Array(ACCOUNT_ADDRESS_LIMIT).fill(INVALID));
    expect((await login({ address: '203.0.113.50' }, email, password)).error).toBe(TOO_MANY);
    expect((await login({ address: '203.0.113.51' }, email, password)).status).toBe(200);
  });
});

describe('a device known to the account', () => {
  it('has a budget of its own, which its failures do not take from the account', async () => {
    const { email, password } = await newAccount();
    const browser = await knownBrowser('198.51.100.40', email, password);
    expect(await guess(browser, email, DEVICE_LIMIT)).toEqual(Array(DEVICE_LIMIT).fill(INVALID));
    expect((await login(browser, email, password)).error).toBe(TOO_MANY);
    // Neither the account nor (account, address) was charged: a new browser there signs in.
    expect((await login({ address: browser.address }, email, password)).status).toBe(200);
  });

  it('is only one whose cookie we signed for this account: a forged or borrowed cookie counts as none', async () => {
    const { email, password } = await newAccount();
    const other = await newAccount();
    const owner = await knownBrowser('198.51.100.60', email, password);
    const otherBrowser = await knownBrowser('198.51.100.61', other.email, other.password);
    await guess({ address: '203.0.113.60' }, email, ACCOUNT_LIMIT / 2);
    await guess({ address: '203.0.113.61' }, email, ACCOUNT_LIMIT / 2);

    const value = owner.device.slice('checkline_device='.length);
    const parts = value.split('.');
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    const renamed = [...parts];
    renamed[1] = Buffer.from(email.toUpperCase()).toString('base64url');
    const forged = {
      'an altered signature': [...parts.slice(0, 4), flip(parts[4]!)].join('.'),
      'an altered nonce': [...parts.slice(0, 3), flip(parts[3]!), parts[4]].join('.'),
      'another account named under the same signature': [
        ...parts.slice(0, 1),
        Buffer.from(other.email).toString('base64url'),
        ...parts.slice(2),
      ].join('.'),
      'a renamed account': renamed.join('.'),
      'no signature': parts.slice(0, 4).join('.'),
      garbage: 'not-a-device-cookie',
    };
    for (const [what, forgedValue] of Object.entries(forged)) {
      const attempt = await login(
        { address: owner.address, device: `checkline_device=${forgedValue}` },
        email,
        password,
      );
      expect(attempt.error, what).toBe(TOO_MANY);
    }
    const borrowed = await login({ ...otherBrowser, address: owner.address }, email, password);
    expect(borrowed.error, "another account's device cookie").toBe(TOO_MANY);

    expect((await login(owner, email, password)).status).toBe(200);
  });
});
