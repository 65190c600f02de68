import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  defineNotificationStrategy,
  deliveryResultOf,
  unreachable,
  versionedSchema,
} from '@checkline/notification-node';
import type { OAuthProvider } from '@checkline/notification/testing';
import {
  startOAuthProvider,
  testChannelPlugin,
  writeStrategySettings,
} from '@checkline/notification/testing';
import { loopbackEgress } from '@checkline/notification-node/testing';
import { queryRows } from '@checkline/db';
import type { ContractRouterClient } from '@orpc/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractClient } from './support/contract-client.ts';
import {
  change,
  consent,
  errorMessageOf,
  expectAuthorizeRedirect,
  expectCodeExchange,
  oauthLinking,
  type LinkingContracts,
} from './support/oauth-linking.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 12 item 1 over HTTP: a user links an account on a test chat strategy through a real
 * OAuth 2 server on loopback (`oauth2-mock-server`), deliveries reach a fake chat API with the
 * linked token and account, tokens are refreshed before they expire, and unlink revokes.
 */
type Contracts = LinkingContracts;

const CHANNEL = 'oauth-channel';
const STRATEGY = `${CHANNEL}.chat`;
const OAUTH = `/api/notification/oauth/${STRATEGY}`;
const CLIENT = { id: 'checkline-client', secret: 'client-secret-value' };

/** A chat service's API on loopback: records each message with the token that sent it. */
interface ChatMessage {
  authorization: string | undefined;
  channel: string;
  text: string;
}

async function startChatApi() {
  const received: ChatMessage[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
      received.push({
        authorization: request.headers.authorization,
        channel: body.channel ?? '',
        text: body.text ?? '',
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const chat = defineNotificationStrategy({
  id: 'chat',
  displayName: 'Test Chat',
  config: versionedSchema({
    version: 1,
    schema: z.object({
      clientId: z.string(),
      clientSecret: z.string(),
      providerUrl: z.string(),
      apiUrl: z.string(),
    }),
  }),
  contactResolution: { type: 'oauth-link' },
  oauth: {
    clientId: (config) => config.clientId,
    clientSecret: (config) => config.clientSecret,
    scopes: ['chat:write', 'users:read'],
    authorizationUrl: (config) => `${config.providerUrl}/authorize`,
    tokenUrl: (config) => `${config.providerUrl}/token`,
    revocationUrl: (config) => `${config.providerUrl}/revoke`,
    extractExternalId: (token) => String((token.authed_user as { id: string }).id),
  },
  async send({ strategyConfig, accessToken, externalId, notification }) {
    try {
      const response = await fetch(`${strategyConfig.apiUrl}/chat.postMessage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: externalId, text: notification.title }),
      });
      return await deliveryResultOf(response, 'Test Chat');
    } catch (error) {
      return unreachable('Test Chat', error);
    }
  },
});

let server: TestServer;
let provider: OAuthProvider;
let chatApi: Awaited<ReturnType<typeof startChatApi>>;
let admin: ContractRouterClient<Contracts>;
let usersRoleId: string;
const { newPerson, startLink, callback, link, storedLink, expectLinked, sendTo, expireSoon } =
  oauthLinking({
    server: () => server,
    admin: () => admin,
    strategyId: STRATEGY,
    roleIds: () => [usersRoleId],
  });

const grantCount = (grant: string) =>
  provider.tokenCalls.filter((call) => call.grantType === grant).length;

beforeAll(async () => {
  provider = await startOAuthProvider();
  chatApi = await startChatApi();
  server = await createTestServer({
    extraPlugins: [testChannelPlugin(CHANNEL, [chat])],
    notification: {
      delivery: { maxAttempts: 2, retryDelaysMs: [5, 10, 20] },
      // The OAuth provider of the test listens on loopback, which the server's guard refuses.
      egress: loopbackEgress(),
    },
  });
  const { cookie } = await server.adminSession();
  admin = contractClient<Contracts>(() => server, { cookie, origin: testEnv.BASE_URL });
  const role = await admin.auth.createRole({
    name: 'chat-users',
    accessRules: [`${CHANNEL}.strategy.chat.use`],
  });
  usersRoleId = role.id;
  await writeStrategySettings(server.database.db, STRATEGY, {
    config: {
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      providerUrl: provider.url,
      apiUrl: chatApi.url,
    },
  });
});
afterAll(async () => {
  await server?.close();
  await provider?.stop();
  await chatApi?.close();
});

describe('linking an account through OAuth', () => {
  it('links, delivers with the token, refreshes before expiry, and unlinks with a revocation', async () => {
    const person = await newPerson();
    provider.setExternalId('U-FLOW');

    const authorize = await startLink(person, '?returnTo=%2Fsettings%2Fnotifications');
    expectAuthorizeRedirect(authorize, {
      page: `${provider.url}/authorize`,
      clientId: CLIENT.id,
      redirectUri: `${testEnv.BASE_URL}${OAUTH}/callback`,
      scope: 'chat:write users:read',
    });

    const done = await callback(person, await consent(authorize));
    const exchange = provider.tokenCalls.at(-1)!;
    expectCodeExchange(exchange, CLIENT);
    expect(exchange.body.redirect_uri).toBe(`${testEnv.BASE_URL}${OAUTH}/callback`);
    const issued = exchange.answer;

    const stored = await expectLinked(done, person.id, issued);
    expect(stored.externalId).toBe('U-FLOW');
    expect(stored.linkedAt).not.toBeNull();
    expect(stored.tokens?.scopes).toEqual(['dummy']);

    const first = await sendTo(person.id, 'First alert');
    expect(first.status).toBe('sent');
    expect(chatApi.received.at(-1)).toEqual({
      authorization: `Bearer ${String(issued.access_token)}`,
      channel: 'U-FLOW',
      text: 'First alert',
    });

    const refreshesBefore = grantCount('refresh_token');
    await expireSoon(person.id);
    const second = await sendTo(person.id, 'Second alert');
    expect(second.status).toBe('sent');
    expect(grantCount('refresh_token')).toBe(refreshesBefore + 1);
    const refresh = provider.tokenCalls.at(-1)!;
    expect(refresh.body.refresh_token).toBe(issued.refresh_token);
    expect(refresh.answer.access_token).not.toBe(issued.access_token);
    expect(chatApi.received.at(-1)).toEqual({
      authorization: `Bearer ${String(refresh.answer.access_token)}`,
      channel: 'U-FLOW',
      text: 'Second alert',
    });
    // Fresh again: the next delivery does not refresh.
    expect((await sendTo(person.id, 'Third alert')).status).toBe('sent');
    expect(grantCount('refresh_token')).toBe(refreshesBefore + 1);

    const unlink = await server.request(`${OAUTH}/unlink`, change(person, 'DELETE'));
    expect(unlink.status).toBe(200);
    expect(await unlink.json()).toEqual({ strategyId: STRATEGY, unlinked: true, revoked: true });
    await expect.poll(() => provider.revocations.length, { timeout: 5_000 }).toBeGreaterThan(0);
    const revocation = provider.revocations.at(-1)!;
    expect(revocation.form.get('token')).toBe(refresh.answer.refresh_token);
    expect(revocation.form.get('token_type_hint')).toBe('refresh_token');
    expect(revocation.authorization).toBe(exchange.authorization);
    const after = await storedLink(person.id);
    expect(after).toMatchObject({ tokens: undefined, externalId: null, linkedAt: null });
    const cross = await server.request(`${OAUTH}/unlink`, {
      method: 'DELETE',
      headers: { cookie: person.session.cookie, origin: 'https://evil.example' },
    });
    expect(cross.status).toBe(403);
    const unlinked = await sendTo(person.id, 'After unlink');
    expect(unlinked).toMatchObject({
      status: 'skipped',
      skipReason: 'No contact: no linked account',
    });
  });

  it('refreshes the caller’s tokens on POST refresh', async () => {
    const person = await newPerson();
    await link(person);
    const before = grantCount('refresh_token');
    const response = await server.request(`${OAUTH}/refresh`, change(person, 'POST'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ strategyId: STRATEGY, refreshed: true });
    expect(grantCount('refresh_token')).toBe(before + 1);
    const stranger = await newPerson();
    const none = await server.request(`${OAUTH}/refresh`, change(stranger, 'POST'));
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers refresh and unlink without a session with 401 JSON', async () => {
    for (const [method, action] of [
      ['POST', 'refresh'],
      ['DELETE', 'unlink'],
    ] as const) {
      const response = await server.request(`${OAUTH}/${action}`, { method });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('skips the delivery, marks the link and tells the user when the provider refuses the refresh', async () => {
    const person = await newPerson();
    await link(person);
    await expireSoon(person.id);
    provider.refuseNextToken('invalid_grant');
    const delivery = await sendTo(person.id, 'Alert after revocation');
    expect(delivery.status).toBe('skipped');
    expect(delivery.skipReason).toMatch(/linked again/);
    const [marked] = await queryRows<{ needs_relink: boolean }>(
      server.database.db,
      sql`select needs_relink from notification.oauth_tokens
          where user_id = ${person.id} and strategy_id = ${STRATEGY}`,
    );
    expect(marked?.needs_relink).toBe(true);
    const inbox = await contractClient<Contracts>(
      () => server,
      person.session,
    ).notification.getNotifications({});
    expect(inbox.notifications.map((item) => item.title)).toContain(
      'Link your Test Chat account again',
    );
    // The next delivery is skipped without asking the provider again, and the user is told once.
    const calls = provider.tokenCalls.length;
    expect((await sendTo(person.id, 'Another alert')).status).toBe('skipped');
    expect(provider.tokenCalls.length).toBe(calls);
    const again = await contractClient<Contracts>(
      () => server,
      person.session,
    ).notification.getNotifications({});
    expect(
      again.notifications.filter((item) => item.title === 'Link your Test Chat account again'),
    ).toHaveLength(1);
    // Linking again clears the mark.
    await link(person);
    expect((await sendTo(person.id, 'Relinked alert')).status).toBe('sent');
  });
});

describe('the caller’s channel shows the state of the link', () => {
  it('goes from not linked to linked, needing a new link, linked again and unlinked, without a token', async () => {
    const person = await newPerson();
    provider.setExternalId('U-STATUS');
    const client = contractClient<Contracts>(() => server, person.session);
    const channelsAnswer = () => client.notification.getMyChannels({});
    const linkOf = async () =>
      (await channelsAnswer()).channels.find((channel) => channel.strategyId === STRATEGY)?.link;
    const linkUrl = `${OAUTH}/auth`;
    // The raw row's timestamp, in the API's form.
    const storedLinkedAt = async () =>
      new Date((await storedLink(person.id)).linkedAt!).toISOString();

    expect(await linkOf()).toEqual({
      linked: false,
      linkedAt: null,
      externalId: null,
      needsRelink: false,
      linkUrl,
    });

    await link(person);
    const linked = await linkOf();
    expect(linked).toEqual({
      linked: true,
      linkedAt: await storedLinkedAt(),
      externalId: 'U-STATUS',
      needsRelink: false,
      linkUrl,
    });
    // The answer of a change carries the link too.
    const changed = await client.notification.updateMyChannel({
      strategyId: STRATEGY,
      enabled: true,
    });
    expect(changed.link).toEqual(linked);

    await expireSoon(person.id);
    provider.refuseNextToken('invalid_grant');
    expect((await sendTo(person.id, 'Alert while the grant is gone')).status).toBe('skipped');
    expect(await linkOf()).toEqual({ ...linked, needsRelink: true });

    const tokens = provider.tokenCalls.flatMap((call) =>
      [call.answer.access_token, call.answer.refresh_token].filter((token) => token !== undefined),
    );
    expect(tokens.length).toBeGreaterThan(0);
    const stored = await storedLink(person.id);
    const answer = JSON.stringify(await channelsAnswer());
    for (const hidden of [
      ...tokens.map(String),
      stored.tokens!.access_token_ciphertext,
      stored.tokens!.refresh_token_ciphertext!,
      CLIENT.secret,
    ]) {
      expect(answer).not.toContain(hidden);
    }

    await link(person);
    const relinked = await linkOf();
    expect(relinked).toMatchObject({ linked: true, externalId: 'U-STATUS', needsRelink: false });
    expect(relinked!.linkedAt).toBe(await storedLinkedAt());

    const unlink = await server.request(`${OAUTH}/unlink`, change(person, 'DELETE'));
    expect(unlink.status).toBe(200);
    expect(await linkOf()).toEqual({
      linked: false,
      linkedAt: null,
      externalId: null,
      needsRelink: false,
      linkUrl,
    });
  });
});

describe('the API reference', () => {
  it('describes the four linking routes', async () => {
    const { cookie } = await server.adminSession();
    const response = await server.request('/api/openapi.json', {
      headers: { cookie },
    });
    const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    const prefix = '/api/notification/oauth/{strategyId}';
    expect(Object.keys(document.paths[`${prefix}/auth`] ?? {})).toEqual(['get']);
    expect(Object.keys(document.paths[`${prefix}/callback`] ?? {})).toEqual(['get']);
    expect(Object.keys(document.paths[`${prefix}/refresh`] ?? {})).toEqual(['post']);
    expect(Object.keys(document.paths[`${prefix}/unlink`] ?? {})).toEqual(['delete']);
  });
});

describe('refused links end on the error page and store nothing', () => {
  const noLink = async (userId: string) =>
    expect(await storedLink(userId)).toMatchObject({ tokens: undefined, externalId: null });

  it('a replayed state', async () => {
    const person = await newPerson();
    const back = await consent(await startLink(person));
    await callback(person, back);
    const unlinked = await server.request(`${OAUTH}/unlink`, change(person, 'DELETE'));
    expect(unlinked.status).toBe(200);
    const replay = await callback(person, back);
    expect(errorMessageOf(replay)).toBe(
      'This link request is invalid or has expired, please start again',
    );
    await noLink(person.id);
  });

  it("another user's state", async () => {
    const owner = await newPerson();
    const thief = await newPerson();
    const back = await consent(await startLink(owner));
    const stolen = await callback(thief, back);
    expect(errorMessageOf(stolen)).toMatch(/invalid or has expired/);
    await noLink(thief.id);
    await noLink(owner.id);
  });

  it('a made-up, missing or malformed state', async () => {
    const person = await newPerson();
    for (const query of [
      '?code=abc&state=made-up-state',
      '?code=abc',
      `?code=abc&state=${'x'.repeat(3000)}`,
      '?code=abc&state=%00',
    ]) {
      const refused = await callback(person, `${OAUTH}/callback${query}`);
      expect(errorMessageOf(refused)).toMatch(/invalid or has expired|address of this page/);
    }
    await noLink(person.id);
  });

  it('an expired state', async () => {
    const person = await newPerson();
    const back = await consent(await startLink(person));
    await server.database.db.execute(
      sql`update notification.oauth_states set expires_at = clock_timestamp() - interval '1 second'
          where user_id = ${person.id}`,
    );
    expect(errorMessageOf(await callback(person, back))).toMatch(/invalid or has expired/);
    await noLink(person.id);
  });

  it('a missing session, at the start and on the return', async () => {
    expect(errorMessageOf(await startLink(undefined))).toBe('Please sign in to link an account');
    const person = await newPerson();
    const back = await consent(await startLink(person));
    expect(errorMessageOf(await callback(undefined, back))).toBe(
      'Please sign in to link an account',
    );
    await noLink(person.id);
    // An application key is not a user's session.
    const { secret } = await admin.auth.createApplication({ name: 'linker-app' });
    const byKey = await server.request(`${OAUTH}/auth`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(errorMessageOf(new URL(byKey.headers.get('location')!))).toBe(
      'Please sign in to link an account',
    );
  });

  it('an absolute or //host return path, before any state is stored', async () => {
    const person = await newPerson();
    for (const returnTo of [
      'https://evil.example/steal',
      '//evil.example/steal',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const refused = await startLink(person, `?returnTo=${encodeURIComponent(returnTo)}`);
      expect({ returnTo, message: errorMessageOf(refused) }).toEqual({
        returnTo,
        message: 'The return address must be a page of ours',
      });
    }
    const [states] = await queryRows<{ count: number }>(
      server.database.db,
      sql`select count(*)::int as count from notification.oauth_states where user_id = ${person.id}`,
    );
    expect(states?.count).toBe(0);
  });

  it('a provider error=access_denied', async () => {
    const person = await newPerson();
    const authorize = await startLink(person);
    const state = authorize.searchParams.get('state')!;
    const denied = await callback(
      person,
      `${OAUTH}/callback?error=access_denied&state=${encodeURIComponent(state)}`,
    );
    expect(errorMessageOf(denied)).toBe('You declined to link the account');
    await noLink(person.id);
  });

  it('a strategy without oauth, and a user without the .use rule', async () => {
    const response = await server.request(`/api/notification/oauth/${CHANNEL}.nothing/auth`, {
      headers: { cookie: (await newPerson()).session.cookie },
    });
    expect(errorMessageOf(new URL(response.headers.get('location')!))).toBe(
      'This channel cannot be linked',
    );
    const outsider = await admin.auth.createUser({
      email: 'outsider@example.com',
      password: 'a sound enough password',
      roleIds: [],
    });
    const { cookie } = await server.sessionOf('outsider@example.com', 'a sound enough password');
    const refused = await server.request(`${OAUTH}/auth`, { headers: { cookie } });
    expect(errorMessageOf(new URL(refused.headers.get('location')!))).toBe(
      'You are not allowed to use this channel',
    );
    await noLink(outsider.id);
  });

  it('never logs a token or the client secret', () => {
    const secrets = provider.tokenCalls.flatMap((call) =>
      [call.answer.access_token, call.answer.refresh_token].filter(
        (value): value is string => typeof value === 'string',
      ),
    );
    expect(secrets.length).toBeGreaterThan(0);
    const log = server.logLines.join('\n');
    for (const secret of [...secrets, CLIENT.secret]) expect(log).not.toContain(secret);
  });
});
