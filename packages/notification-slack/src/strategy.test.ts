import { secretFieldPaths } from '@checkline/notification-node';
import type { FakeService } from '@checkline/notification-node/testing';
import {
  jsonBody,
  loopbackEgress,
  sendContextFor,
  startFakeService,
} from '@checkline/notification-node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackStrategy, SLACK_SECTION_LIMIT } from './strategy.ts';

const strategy = createSlackStrategy({ egress: loopbackEgress() });
const BOT_TOKEN = 'xoxb-1111-2222-s3cretbottoken';

let slack: FakeService;
let config: Record<string, unknown>;
beforeAll(async () => {
  // Slack's Web API: HTTP 200 with ok true or ok false and an error code.
  slack = await startFakeService((request) => {
    const method = request.url;
    if (method !== '/api/chat.postMessage' && method !== '/api/auth.revoke') {
      return { status: 404, body: 'unknown method' };
    }
    if (request.headers.authorization !== `Bearer ${BOT_TOKEN}`) {
      return { status: 200, body: { ok: false, error: 'invalid_auth' } };
    }
    if (method === '/api/auth.revoke') return { status: 200, body: { ok: true, revoked: true } };
    const { channel } = JSON.parse(request.body) as { channel: string };
    return channel === 'U0GONE'
      ? { status: 200, body: { ok: false, error: 'channel_not_found' } }
      : { status: 200, body: { ok: true, channel: 'D024BE91L', ts: '1503435956.000247' } };
  });
  config = { clientId: '1234.5678', clientSecret: 'slack-client-s3cret', baseUrl: slack.url };
});
afterAll(() => slack.close());

const send = (notification = {}, overrides: { accessToken?: string; contact?: string } = {}) =>
  strategy.send(
    sendContextFor(strategy, {
      contact: overrides.contact ?? 'U0LINKED',
      externalId: overrides.contact ?? 'U0LINKED',
      accessToken: overrides.accessToken ?? BOT_TOKEN,
      config,
      notification,
    }),
  );

interface Block {
  type: string;
  text?: { type: string; text: string };
  elements?: { type: string; text: { text: string }; url: string }[];
}

describe('Slack strategy', () => {
  it('posts Block Kit to the linked user with the bot token: header, escaped section, button', async () => {
    const result = await send({
      title: 'Checkout <!channel> down',
      body: 'Since **12:00** <!here> <@U0BOSS> & [docs](https://docs.example)',
      action: { label: 'Open check', url: 'https://status.example/checks/1' },
    });
    expect(result).toEqual({ success: true });
    const request = slack.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = jsonBody(request);
    expect(body).toMatchObject({ channel: 'U0LINKED', unfurl_links: false, unfurl_media: false });
    // No mention can come out of content: in what Slack reads as mrkdwn (the fallback text and
    // the sections) every `<` from content is an entity; the header is plain_text, never parsed.
    const mrkdwn = [body.text, ...(body.blocks as Block[]).filter((b) => b.type !== 'header')];
    expect(JSON.stringify(mrkdwn)).not.toMatch(/<[!@#]/);
    expect(body.text).toBe(':red_circle: Checkout &lt;!channel&gt; down');
    const blocks = body.blocks as Block[];
    expect(blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Checkout <!channel> down', emoji: true },
    });
    expect(blocks[1]!.type).toBe('section');
    expect(blocks[1]!.text!.type).toBe('mrkdwn');
    expect(blocks[1]!.text!.text).toContain('*12:00*');
    expect(blocks[1]!.text!.text).toContain('&lt;!here&gt; &lt;@U0BOSS&gt; &amp;');
    const actions = blocks.find((block) => block.type === 'actions')!;
    expect(actions.elements![0]).toMatchObject({
      type: 'button',
      text: { text: 'Open check' },
      url: 'https://status.example/checks/1',
    });
  });

  it(`keeps the section within ${SLACK_SECTION_LIMIT} characters`, async () => {
    await send({ body: 'word '.repeat(2_000) });
    const section = (jsonBody(slack.requests.at(-1)).blocks as Block[])[1]!;
    expect(section.text!.text.length).toBeLessThanOrEqual(SLACK_SECTION_LIMIT);
    expect(section.text!.text.length).toBeGreaterThan(SLACK_SECTION_LIMIT - 100);
  });

  it('answers an HTTP 429 with Retry-After as a retry no sooner than asked', async () => {
    slack.answerNext({
      status: 429,
      headers: { 'retry-after': '30' },
      body: { ok: false, error: 'ratelimited' },
    });
    const result = await send();
    expect(result).toMatchObject({ success: false, retryAfterMs: 30_000 });
    expect(result.permanent).toBeUndefined();
  });

  it('retries a 200 answer of ok false ratelimited, after its Retry-After', async () => {
    slack.answerNext({
      status: 200,
      headers: { 'retry-after': '3' },
      body: { ok: false, error: 'ratelimited' },
    });
    const result = await send();
    expect(result).toEqual({
      success: false,
      error: 'Slack answered ratelimited',
      retryAfterMs: 3_000,
    });
  });

  it('fails at once for invalid_auth, quoting no token', async () => {
    const result = await send({}, { accessToken: 'xoxb-revoked-token-value' });
    expect(result).toEqual({
      success: false,
      error: 'Slack answered invalid_auth',
      permanent: true,
    });
  });

  it('fails at once for channel_not_found', async () => {
    expect(await send({}, { contact: 'U0GONE' })).toMatchObject({
      success: false,
      permanent: true,
      error: 'Slack answered channel_not_found',
    });
  });

  it('fails at once without a token (the link was never completed)', async () => {
    const context = sendContextFor(strategy, { contact: 'U0LINKED', config });
    expect(await strategy.send(context)).toMatchObject({ success: false, permanent: true });
  });

  it('marks the client secret secret', () => {
    expect(secretFieldPaths(strategy.config.schema)).toEqual([['clientSecret']]);
  });
});

describe('Slack OAuth v2 definition', () => {
  const oauth = strategy.oauth!;
  const parsed = strategy.config.schema.parse({ clientId: '1234.5678', clientSecret: 'shh' });

  it('asks for the bot scope chat:write at Slack v2 OAuth endpoints by default', () => {
    expect(oauth.scopes).toEqual(['chat:write']);
    expect(oauth.authorizationUrl(parsed)).toBe('https://slack.com/oauth/v2/authorize');
    expect(oauth.tokenUrl(parsed)).toBe('https://slack.com/api/oauth.v2.access');
    expect(oauth.clientId(parsed)).toBe('1234.5678');
    expect(oauth.clientSecret(parsed)).toBe('shh');
  });

  it('takes the installing user as the external id and the bot token as the access token', () => {
    const answer = {
      ok: true,
      access_token: 'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
      token_type: 'bot',
      scope: 'chat:write',
      bot_user_id: 'U0KRQLJ9H',
      app_id: 'A0KRD7HC3',
      team: { name: 'Slack Softball Team', id: 'T9TK3CUKW' },
      authed_user: { id: 'U1234', scope: '', access_token: 'xoxp-user-token', token_type: 'user' },
    };
    expect(oauth.extractExternalId(answer)).toBe('U1234');
    expect(oauth.extractAccessToken!(answer)).toBe(answer.access_token);
  });

  it('revokes the bot token with auth.revoke at the configured base', async () => {
    const config = strategy.config.schema.parse({
      clientId: '1234.5678',
      clientSecret: 'shh',
      baseUrl: slack.url,
    });
    await oauth.revoke!({ accessToken: BOT_TOKEN, refreshToken: 'xoxe-1-refresh' }, config);
    const request = slack.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/auth.revoke');
    expect(request.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(request.body).not.toContain('xoxe-1-refresh');
  });

  it('fails the revocation when Slack answers ok false, quoting no token', async () => {
    const config = strategy.config.schema.parse({
      clientId: '1234.5678',
      clientSecret: 'shh',
      baseUrl: slack.url,
    });
    const refused = await oauth.revoke!({ accessToken: 'xoxb-unknown-token-value' }, config).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toBe('Slack answered auth.revoke with invalid_auth');
  });

  it('refuses a token answer without the user or the bot token', () => {
    expect(() => oauth.extractExternalId({ ok: true, access_token: 'xoxb-1' })).toThrow(
      'authed_user.id',
    );
    expect(() => oauth.extractAccessToken!({ ok: true, authed_user: { id: 'U1' } })).toThrow(
      'access_token',
    );
  });
});
