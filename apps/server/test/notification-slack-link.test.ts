import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSlackChannelPlugin, SLACK_PLUGIN_ID } from '@checkline/notification-slack';
import type { OAuthProvider } from '@checkline/notification/testing';
import { startOAuthProvider } from '@checkline/notification/testing';
import { loopbackEgress } from '@checkline/notification-node/testing';
import type { ContractRouterClient } from '@orpc/contract';
import { Events } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract-client.ts';
import {
  change,
  consent,
  expectAuthorizeRedirect,
  expectCodeExchange,
  oauthLinking,
  type LinkingContracts,
} from './support/oauth-linking.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 12, "What it must show", with the real `notification-slack` plugin: linking through a
 * real OAuth 2 server (`oauth2-mock-server` at Slack's OAuth v2 paths) and deliveries to a fake
 * Slack Web API, both behind one loopback origin as slack.com serves both; token refresh before
 * a send, and unlinking with Slack's `auth.revoke`.
 */
const STRATEGY = `${SLACK_PLUGIN_ID}.slack`;
const CLIENT = { id: '1234.5678', secret: 'slack-client-s3cret-value' };
const SLACK_USER = 'U0LINKED42';

/** What the fake Slack Web API received at one method. */
interface SlackCall {
  authorization: string | undefined;
  body: string;
}

/** The body of a request the OAuth provider does not see. */
const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

/**
 * slack.com on loopback: the Web API methods `chat.postMessage` and `auth.revoke`, which accept
 * only tokens the provider issued and not yet revoked; every other path (OAuth v2 authorize and
 * `oauth.v2.access`) goes to the real OAuth server's handler.
 */
async function startFakeSlack(provider: OAuthProvider) {
  const posted: SlackCall[] = [];
  const revoked: SlackCall[] = [];
  const revokedTokens = new Set<string>();
  const issued = () =>
    new Set(provider.tokenCalls.map((call) => call.answer.access_token).filter(Boolean));
  const server: Server = createServer((request, response) => {
    const method = { '/api/chat.postMessage': posted, '/api/auth.revoke': revoked }[
      request.url ?? ''
    ];
    if (request.method !== 'POST' || !method) {
      provider.server.service.requestHandler(request, response);
      return;
    }
    void bodyOf(request).then((body) => {
      const authorization = request.headers.authorization;
      method.push({ authorization, body });
      const token = authorization?.replace(/^Bearer /, '') ?? '';
      const valid = issued().has(token) && !revokedTokens.has(token);
      if (valid && method === revoked) revokedTokens.add(token);
      const answer = !valid
        ? { ok: false, error: 'invalid_auth' }
        : method === revoked
          ? { ok: true, revoked: true }
          : { ok: true, channel: 'D024BE91L', ts: '1503435956.000247' };
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posted,
    revoked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Block {
  type: string;
  text?: { type: string; text: string };
  elements?: { type: string; text: { text: string }; url: string }[];
}

let server: TestServer;
let provider: OAuthProvider;
let slack: Awaited<ReturnType<typeof startFakeSlack>>;
let admin: ContractRouterClient<LinkingContracts>;
let usersRoleId: string;

const { oauthPath, newPerson, startLink, callback, storedLink, expectLinked, sendTo, expireSoon } =
  oauthLinking({
    server: () => server,
    admin: () => admin,
    strategyId: STRATEGY,
    roleIds: () => [usersRoleId],
  });

const refreshCount = () =>
  provider.tokenCalls.filter((call) => call.grantType === 'refresh_token').length;

beforeAll(async () => {
  provider = await startOAuthProvider({
    externalId: SLACK_USER,
    endpoints: { authorize: '/oauth/v2/authorize', token: '/api/oauth.v2.access' },
  });
  // Slack's own answer around the token: ok, a bot token of the granted scope, the team.
  provider.server.service.on(Events.BeforeResponse, (response: { body: unknown }) => {
    const answer = response.body as Record<string, unknown>;
    if (typeof answer.access_token !== 'string') return;
    Object.assign(answer, {
      ok: true,
      token_type: 'bot',
      scope: 'chat:write',
      bot_user_id: 'U0BOT',
      team: { id: 'T9TK3CUKW', name: 'Checkline' },
    });
  });
  slack = await startFakeSlack(provider);
  server = await createTestServer({
    extraPlugins: [createSlackChannelPlugin({ egress: loopbackEgress() })],
    notification: {
      delivery: { maxAttempts: 2, retryDelaysMs: [5, 10, 20] },
      // The OAuth provider of the test listens on loopback, which the server's guard refuses.
      egress: loopbackEgress(),
    },
  });
  const { cookie } = await server.adminSession();
  admin = contractClient<LinkingContracts>(() => server, { cookie, origin: testEnv.BASE_URL });
  const role = await admin.auth.createRole({
    name: 'slack-users',
    accessRules: [`${SLACK_PLUGIN_ID}.strategy.slack.use`],
  });
  usersRoleId = role.id;
  await admin.notification.updateStrategy({
    strategyId: STRATEGY,
    enabled: true,
    config: { clientId: CLIENT.id, clientSecret: CLIENT.secret, baseUrl: slack.url },
  });
});
afterAll(async () => {
  await server?.close();
  await slack?.close();
  await provider?.stop();
});

describe('linking a Slack account', () => {
  it('links through OAuth v2, posts Block Kit with the token, refreshes it, and revokes it on unlink', async () => {
    const person = await newPerson();

    // auth → 302 to Slack's consent page with PKCE and state.
    const authorize = await startLink(person);
    expectAuthorizeRedirect(authorize, {
      page: `${slack.url}/oauth/v2/authorize`,
      clientId: CLIENT.id,
      redirectUri: `${testEnv.BASE_URL}${oauthPath}/callback`,
      scope: 'chat:write',
    });

    // callback → the code is exchanged at oauth.v2.access with the verifier and the client.
    const done = await callback(person, await consent(authorize));
    const exchange = provider.tokenCalls.at(-1)!;
    expectCodeExchange(exchange, CLIENT);
    expect(exchange.body.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    const issued = exchange.answer;
    expect(issued).toMatchObject({ ok: true, authed_user: { id: SLACK_USER } });

    // Stored encrypted: the raw row holds neither token.
    const stored = await expectLinked(done, person.id, issued);
    expect(stored.externalId).toBe(SLACK_USER);
    expect(stored.tokens?.scopes).toEqual(['chat:write']);

    // sendExternal → chat.postMessage with the bot token to the linked user, Block Kit, no mention.
    const first = await sendTo(person.id, 'Checkout <!channel> down', {
      description: 'Since **12:00** <!here> <@U0BOSS> <#C0ALL>',
      action: { label: 'Open check', url: '/checks/1' },
    });
    expect(first.status).toBe('sent');
    expect(slack.posted).toHaveLength(1);
    const post = slack.posted[0]!;
    expect(post.authorization).toBe(`Bearer ${String(issued.access_token)}`);
    const message = JSON.parse(post.body) as { channel: string; text: string; blocks: Block[] };
    expect(message.channel).toBe(SLACK_USER);
    const mrkdwn = [message.text, ...message.blocks.filter((block) => block.type !== 'header')];
    expect(JSON.stringify(mrkdwn)).not.toMatch(/<[!@#]/);
    expect(message.blocks[0]).toMatchObject({
      type: 'header',
      text: { type: 'plain_text', text: 'Checkout <!channel> down' },
    });
    expect(message.blocks[1]!.text!.text).toContain('*12:00*');
    const actions = message.blocks.find((block) => block.type === 'actions');
    expect(actions?.elements?.[0]).toMatchObject({
      type: 'button',
      text: { text: 'Open check' },
      url: `${testEnv.FRONTEND_URL}/checks/1`,
    });

    // Expiry → one refresh at oauth.v2.access before the next send, which uses the new token.
    const refreshesBefore = refreshCount();
    await expireSoon(person.id);
    expect((await sendTo(person.id, 'Second alert')).status).toBe('sent');
    expect(refreshCount()).toBe(refreshesBefore + 1);
    const refresh = provider.tokenCalls.at(-1)!;
    expect(refresh.body.refresh_token).toBe(issued.refresh_token);
    expect(refresh.answer.access_token).not.toBe(issued.access_token);
    expect(slack.posted).toHaveLength(2);
    expect(slack.posted[1]!.authorization).toBe(`Bearer ${String(refresh.answer.access_token)}`);
    expect((JSON.parse(slack.posted[1]!.body) as { channel: string }).channel).toBe(SLACK_USER);

    // Unlink → auth.revoke with the current token, and the link is gone.
    const unlink = await server.request(`${oauthPath}/unlink`, change(person, 'DELETE'));
    expect(unlink.status).toBe(200);
    expect(await unlink.json()).toEqual({ strategyId: STRATEGY, unlinked: true, revoked: true });
    expect(slack.revoked.map((call) => call.authorization)).toEqual([
      `Bearer ${String(refresh.answer.access_token)}`,
    ]);
    expect(await storedLink(person.id)).toMatchObject({
      tokens: undefined,
      externalId: null,
      linkedAt: null,
    });
    const after = await sendTo(person.id, 'After unlink');
    expect(after).toMatchObject({ status: 'skipped', skipReason: 'No contact: no linked account' });
    expect(slack.posted).toHaveLength(2);
  });

  it('never logs a Slack token or the client secret', () => {
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
