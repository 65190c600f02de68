import { testPrincipal } from '@checkline/core/testing';
import { Events } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { OAuthTokenSet } from '@checkline/notification-node';
import { defineNotificationStrategy } from '@checkline/notification-node';
import { versionedSchema } from '@checkline/notification-node';
import { createUsers, qualified, startDeliveryFixture, useRule } from '../testing/fixture.ts';
import type { OAuthProvider } from '../testing/oauth-provider.ts';
import { startOAuthProvider } from '../testing/oauth-provider.ts';
import { unlinkAccount } from './link-actions.ts';
import { finishLink, LinkError, startLink } from './link-flow.ts';
import { currentTokens } from './refresh.ts';
import { readLink } from './token-store.ts';

/**
 * A strategy using every optional part of `oauth` (its own state part, consent URL builder,
 * extractors, refresh and revocation, client credentials in the body) against a real OAuth 2
 * server on loopback.
 */
type Config = { providerUrl: string; clientId: string; clientSecret: string };

const decoded: string[] = [];
const customRefreshes: { refreshToken: string; config: Config }[] = [];
const customRevocations: { tokens: OAuthTokenSet; config: Config }[] = [];

const strategy = defineNotificationStrategy({
  id: 'custom',
  displayName: 'Custom chat',
  config: versionedSchema({
    version: 1,
    schema: z.object({ providerUrl: z.string(), clientId: z.string(), clientSecret: z.string() }),
  }),
  contactResolution: { type: 'oauth-link' },
  oauth: {
    clientId: (config) => config.clientId,
    clientSecret: (config) => config.clientSecret,
    scopes: ['chat:write', 'im:write'],
    authorizationUrl: (config) => `${config.providerUrl}/authorize`,
    tokenUrl: (config) => `${config.providerUrl}/token`,
    clientAuthentication: 'body',
    // Slack's shape: the user's own token and id sit under authed_user.
    extractExternalId: (token) => String((token.authed_user as { id: string }).id),
    extractAccessToken: (token) => String((token.authed_user as { token: string }).token),
    extractRefreshToken: () => 'custom-refresh',
    extractExpiresIn: () => 7200,
    extractScopes: (token) => String(token.granted).split(','),
    encodeState: (userId, returnUrl) => Buffer.from(`${userId}|${returnUrl}`).toString('base64url'),
    decodeState: (state) => {
      decoded.push(state);
      const [userId = '', returnUrl = ''] = Buffer.from(state, 'base64url')
        .toString('utf8')
        .split('|');
      return { userId, returnUrl };
    },
    buildAuthUrl: ({ clientId, redirectUri, scopes, state }) => {
      const url = new URL(`${provider.url}/authorize`);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('user_scope', scopes.join(','));
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    },
    refreshToken: (refreshToken, config) => {
      customRefreshes.push({ refreshToken, config });
      return Promise.resolve({ accessToken: 'custom-refreshed-access', expiresIn: 3600 });
    },
    revoke: (tokens, config) => {
      customRevocations.push({ tokens, config });
      return Promise.resolve();
    },
  },
  send: () => Promise.resolve({ success: true }),
});

const STRATEGY = qualified('custom');
let provider: OAuthProvider;
let fixture: Awaited<ReturnType<typeof startDeliveryFixture>>;
let config: Config;

beforeAll(async () => {
  provider = await startOAuthProvider({ externalId: 'U-CUSTOM' });
  provider.server.service.on(Events.BeforeResponse, (response: { body: unknown }) => {
    const body = response.body as Record<string, unknown>;
    body.authed_user = { ...(body.authed_user as object), token: 'xoxp-user-token' };
    body.granted = 'chat:write,im:write';
  });
  config = { providerUrl: provider.url, clientId: 'custom-client', clientSecret: 'custom-secret' };
  fixture = await startDeliveryFixture([strategy], { settingsOf: () => ({ config }) });
});
afterAll(async () => {
  await fixture?.close();
  await provider?.stop();
});

async function person(email: string) {
  const [id] = await createUsers(fixture.database.db, [email], [useRule('custom')]);
  return testPrincipal([useRule('custom')], { kind: 'user', id: id! });
}

/** The provider's answer to the consent URL: the code and state it sends back. */
async function consent(url: string) {
  const answer = await fetch(url, { redirect: 'manual' });
  const back = new URL(answer.headers.get('location')!);
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

describe('an oauth definition with every optional part', () => {
  it('links with its own state part, consent URL and extractors, then refreshes and revokes its way', async () => {
    const user = await person('every-part@example.com');
    const state = fixture.server.state;
    const url = new URL(
      await startLink(state, { strategyId: STRATEGY, principal: user, returnTo: '/channels' }),
    );
    expect(url.searchParams.get('user_scope')).toBe('chat:write,im:write');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const wire = url.searchParams.get('state')!;
    const [, strategyPart] = wire.split('.');
    expect(Buffer.from(strategyPart!, 'base64url').toString()).toBe(`${user.id}|/channels`);

    const done = await finishLink(state, {
      strategyId: STRATEGY,
      principal: user,
      query: await consent(url.toString()),
    });
    expect(done).toBe(`http://localhost:3000/channels?linked=${encodeURIComponent(STRATEGY)}`);
    expect(decoded).toContain(strategyPart);
    const exchange = provider.tokenCalls.at(-1)!;
    expect(exchange.authorization).toBeUndefined();
    expect(exchange.body).toMatchObject({
      client_id: 'custom-client',
      client_secret: 'custom-secret',
    });
    const key = { userId: user.id!, strategyId: STRATEGY };
    const link = await readLink(fixture.database.db, state.keyring, key);
    expect(link).toMatchObject({
      accessToken: 'xoxp-user-token',
      refreshToken: 'custom-refresh',
      scopes: ['chat:write', 'im:write'],
    });
    expect(link!.expiresAt!.getTime() - Date.now()).toBeGreaterThan(7100_000);

    const calls = provider.tokenCalls.length;
    const refreshed = await currentTokens(
      state,
      state.strategies.get(STRATEGY)!,
      config,
      user.id!,
      {
        force: true,
      },
    );
    expect(refreshed).toMatchObject({ kind: 'token', refreshed: true });
    expect(customRefreshes).toEqual([{ refreshToken: 'custom-refresh', config }]);
    expect(provider.tokenCalls.length).toBe(calls);
    const afterRefresh = await readLink(fixture.database.db, state.keyring, key);
    // A refresh without a new refresh token keeps the stored one.
    expect(afterRefresh).toMatchObject({
      accessToken: 'custom-refreshed-access',
      refreshToken: 'custom-refresh',
    });

    expect(await unlinkAccount(state, STRATEGY, user)).toEqual({
      status: 200,
      body: { strategyId: STRATEGY, unlinked: true, revoked: true },
    });
    expect(customRevocations).toEqual([
      {
        tokens: expect.objectContaining({
          accessToken: 'custom-refreshed-access',
          refreshToken: 'custom-refresh',
        }),
        config,
      },
    ]);
    expect(await readLink(fixture.database.db, state.keyring, key)).toBeUndefined();
  });

  it("refuses a state whose strategy part does not decode to the user's own", async () => {
    const user = await person('tampered@example.com');
    const state = fixture.server.state;
    const url = await startLink(state, { strategyId: STRATEGY, principal: user, returnTo: '/a' });
    const back = await consent(url);
    const [platformPart] = back.state.split('.');
    const forged = Buffer.from(`${user.id}|/elsewhere`).toString('base64url');
    await expect(
      finishLink(state, {
        strategyId: STRATEGY,
        principal: user,
        query: { code: back.code, state: `${platformPart}.${forged}` },
      }),
    ).rejects.toBeInstanceOf(LinkError);
    expect(
      await readLink(state.db, state.keyring, { userId: user.id!, strategyId: STRATEGY }),
    ).toBe(undefined);
  });
});
