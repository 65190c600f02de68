import type { AuthContract } from '@checkline/auth/contract';
import { queryRows } from '@checkline/db';
import type { Delivery } from '@checkline/notification';
import type { NotificationContract } from '@checkline/notification/contract';
import type { ContractRouterClient } from '@orpc/contract';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { settledDeliveries } from './settled-deliveries.ts';
import { testEnv, type TestServer } from './test-server.ts';

export type LinkingContracts = { auth: AuthContract; notification: NotificationContract };
type Admin = ContractRouterClient<LinkingContracts>;

export interface Person {
  id: string;
  /** The headers a browser sends with this person's session. */
  session: { cookie: string; origin: string };
}

/** What `sendExternal` takes besides the user and the strategy. */
export interface TestNotification {
  title: string;
  /** Markdown; sendExternal calls the body `description`. */
  description?: string;
  action?: { label: string; url: string };
}

/** A change made with a session: JSON from our own origin, as the auth plugin requires. */
export const change = (person: Person, method: 'POST' | 'DELETE'): RequestInit => ({
  method,
  headers: { ...person.session, 'content-type': 'application/json' },
  body: '{}',
});

/** A path of our server from an absolute URL on BASE_URL. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(new URL(testEnv.BASE_URL).origin);
  return `${parsed.pathname}${parsed.search}`;
};

/** The error page's message, spaces restored. */
export function errorMessageOf(location: URL): string {
  expect(`${location.origin}${location.pathname}`).toBe(`${testEnv.FRONTEND_URL}/auth/error`);
  return location.searchParams.get('error')!.replaceAll('_', ' ');
}

/** The user consents at the provider: the provider's redirect back to our callback. */
export async function consent(authorizeUrl: URL): Promise<string> {
  const answer = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return pathOf(answer.headers.get('location')!);
}

/**
 * The browser's side of linking an account on one OAuth strategy, over HTTP against the test
 * server: people with sessions, the `/auth` → provider → `/callback` round trip, what is stored,
 * deliveries through `sendExternal`. The server and admin client are read when used, as tests
 * make them in `beforeAll`.
 */
export function oauthLinking(options: {
  server: () => TestServer;
  admin: () => Admin;
  strategyId: string;
  /** The roles new people get (one granting the strategy's `.use` rule). */
  roleIds: () => string[];
}) {
  const { strategyId } = options;
  const oauthPath = `/api/notification/oauth/${strategyId}`;
  let names = 0;

  async function newPerson(): Promise<Person> {
    const email = `linker-${++names}@example.com`;
    const password = 'a sound enough password';
    const user = await options
      .admin()
      .auth.createUser({ email, password, roleIds: options.roleIds() });
    return { id: user.id, session: await options.server().sessionOf(email, password) };
  }

  /** `GET .../auth` with the person's session (or none): the redirect's URL. */
  async function startLink(person: Person | undefined, query = ''): Promise<URL> {
    const response = await options.server().request(`${oauthPath}/auth${query}`, {
      headers: person ? { cookie: person.session.cookie } : {},
    });
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location')!);
  }

  async function callback(person: Person | undefined, path: string): Promise<URL> {
    const response = await options.server().request(path, {
      headers: person ? { cookie: person.session.cookie } : {},
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('content-type')).toBeNull();
    return new URL(response.headers.get('location')!);
  }

  async function link(person: Person): Promise<URL> {
    return await callback(person, await consent(await startLink(person)));
  }

  /** The person's token row (raw columns) and their preference's external id. */
  async function storedLink(userId: string) {
    const { db } = options.server().database;
    const [tokens] = await queryRows<{
      access_token_ciphertext: string;
      refresh_token_ciphertext: string | null;
      expires_at: Date | null;
      scopes: string[];
    }>(
      db,
      sql`select access_token_ciphertext, refresh_token_ciphertext, expires_at, scopes
          from notification.oauth_tokens where user_id = ${userId} and strategy_id = ${strategyId}`,
    );
    const [preference] = await queryRows<{ external_id: string | null; linked_at: Date | null }>(
      db,
      sql`select external_id, linked_at from notification.preferences
          where user_id = ${userId} and strategy_id = ${strategyId}`,
    );
    return { tokens, externalId: preference?.external_id ?? null, linkedAt: preference?.linked_at };
  }

  /** `sendExternal` to one user on the strategy, once its delivery is settled. */
  async function sendTo(
    userId: string,
    title: string,
    extra: Omit<TestNotification, 'title'> = {},
  ): Promise<Delivery> {
    const { notification } = options.admin();
    const { notificationId } = await notification.sendExternal({
      userIds: [userId],
      strategyId,
      notification: { title, type: 'test.oauth', ...extra },
    });
    const [delivery] = await settledDeliveries(notification, notificationId, { atLeastOne: true });
    return delivery!;
  }

  /**
   * The callback sent the browser to the settings page with `linked`, and the person's tokens
   * are stored sealed (neither issued token in the raw row): the stored link, for more checks.
   */
  async function expectLinked(done: URL, userId: string, issued: Record<string, unknown>) {
    expect(done.toString()).toBe(
      `${testEnv.FRONTEND_URL}/settings/notifications?linked=${encodeURIComponent(strategyId)}`,
    );
    const stored = await storedLink(userId);
    expect(stored.tokens?.expires_at).not.toBeNull();
    expect(stored.tokens?.access_token_ciphertext).toMatch(/^enc:v1:/);
    const raw = JSON.stringify(stored.tokens);
    expect(raw).not.toContain(String(issued.access_token));
    expect(raw).not.toContain(String(issued.refresh_token));
    return stored;
  }

  /** Moves the stored expiry inside the refresh margin: the next send refreshes first. */
  const expireSoon = (userId: string) =>
    options.server().database.db.execute(
      sql`update notification.oauth_tokens set expires_at = clock_timestamp() + interval '30 seconds'
            where user_id = ${userId} and strategy_id = ${strategyId}`,
    );

  return {
    oauthPath,
    newPerson,
    startLink,
    callback,
    link,
    storedLink,
    expectLinked,
    sendTo,
    expireSoon,
  };
}

/** The provider's consent page `auth` sent the browser to: PKCE S256, a state, this client. */
export function expectAuthorizeRedirect(
  authorize: URL,
  expected: { page: string; clientId: string; redirectUri: string; scope: string },
): void {
  expect(`${authorize.origin}${authorize.pathname}`).toBe(expected.page);
  const params = authorize.searchParams;
  expect(params.get('response_type')).toBe('code');
  expect(params.get('client_id')).toBe(expected.clientId);
  expect(params.get('redirect_uri')).toBe(expected.redirectUri);
  expect(params.get('scope')).toBe(expected.scope);
  expect(params.get('code_challenge_method')).toBe('S256');
  expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
}

/** The code exchange the callback made: an authorization-code grant with Basic client auth. */
export function expectCodeExchange(
  exchange: { grantType: string; authorization: string | undefined },
  client: { id: string; secret: string },
): void {
  expect(exchange.grantType).toBe('authorization_code');
  expect(exchange.authorization).toBe(
    `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
  );
}
