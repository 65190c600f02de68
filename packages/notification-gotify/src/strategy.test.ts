import { secretFieldPaths } from '@checkline/notification-node';
import type { FakeService } from '@checkline/notification-node/testing';
import {
  jsonBody,
  loopbackEgress,
  sendContextFor,
  startFakeService,
} from '@checkline/notification-node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOTIFY_MESSAGE_LIMIT } from './message.ts';
import { createGotifyStrategy } from './strategy.ts';

const strategy = createGotifyStrategy({ egress: loopbackEgress() });
const APP_TOKEN = 'AbCs3cretAppT0k';

let gotify: FakeService;
let config: Record<string, unknown>;
beforeAll(async () => {
  // Gotify: POST /message with the application token in X-Gotify-Key; 401 without a valid one.
  gotify = await startFakeService((request) =>
    request.headers['x-gotify-key'] === APP_TOKEN
      ? { status: 200, body: { id: 25, appid: 5, priority: 9 } }
      : {
          status: 401,
          body: {
            error: 'Unauthorized',
            errorCode: 401,
            errorDescription:
              'you need to provide a valid access token or user credentials to access this api',
          },
        },
  );
  config = { webhookHosts: [new URL(gotify.url).host], requireHttps: false };
});
afterAll(() => gotify.close());

function send(notification = {}, overrides: Record<string, unknown> = {}) {
  const userConfig = { serverUrl: `${gotify.url}/`, appToken: APP_TOKEN, ...overrides };
  return strategy.send(
    sendContextFor(strategy, {
      contact: userConfig.serverUrl,
      config,
      userConfig,
      notification,
    }),
  );
}

describe('Gotify strategy', () => {
  it('posts the message with the app token, priority by importance and the action as click URL', async () => {
    const result = await send({
      body: 'Since **12:00**',
      importance: 'critical',
      action: { label: 'Open check', url: 'https://status.example/checks/1' },
    });
    expect(result).toEqual({ success: true });
    const request = gotify.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/message');
    expect(request.headers['x-gotify-key']).toBe(APP_TOKEN);
    const body = jsonBody(request);
    expect(body).toMatchObject({
      title: 'Checkout is down',
      priority: 9,
      extras: {
        'client::display': { contentType: 'text/plain' },
        'client::notification': { click: { url: 'https://status.example/checks/1' } },
      },
    });
    expect(body.message).toContain('Since 12:00');
    expect(body.message).not.toContain('**');
    expect(body.message).toContain('https://status.example/checks/1');
  });

  it('gives warnings and infos lower priorities', async () => {
    await send({ importance: 'warning' });
    const warning = jsonBody(gotify.requests.at(-1)).priority as number;
    await send({ importance: 'info' });
    const info = jsonBody(gotify.requests.at(-1)).priority as number;
    expect(warning).toBeLessThan(9);
    expect(info).toBeLessThan(warning);
  });

  it(`keeps the message within ${GOTIFY_MESSAGE_LIMIT} characters`, async () => {
    await send({ body: 'word '.repeat(2_000) });
    const message = jsonBody(gotify.requests.at(-1)).message as string;
    expect(message.length).toBeLessThanOrEqual(GOTIFY_MESSAGE_LIMIT);
    expect(message.length).toBeGreaterThan(GOTIFY_MESSAGE_LIMIT - 100);
  });

  it('answers a 429 with Retry-After as a retry no sooner than asked', async () => {
    gotify.answerNext({
      status: 429,
      headers: { 'retry-after': '4' },
      body: { error: 'Too Many Requests' },
    });
    const result = await send();
    expect(result).toMatchObject({ success: false, retryAfterMs: 4_000 });
    expect(result.permanent).toBeUndefined();
  });

  it('fails at once for a wrong app token, which no error quotes', async () => {
    const result = await send({}, { appToken: 'Wr0ngTokenValue' });
    expect(result).toMatchObject({
      success: false,
      permanent: true,
      error: expect.stringContaining('401'),
    });
    expect(result.error).not.toContain('Wr0ngTokenValue');
  });

  it('refuses a plain-http server while https is required, without a request', async () => {
    const before = gotify.requests.length;
    const result = await strategy.send(
      sendContextFor(strategy, {
        contact: gotify.url,
        config: { webhookHosts: ['*'] },
        userConfig: { serverUrl: gotify.url, appToken: APP_TOKEN },
      }),
    );
    expect(result).toMatchObject({
      success: false,
      permanent: true,
      error: expect.stringContaining('https'),
    });
    expect(gotify.requests.length).toBe(before);
  });

  it('takes the server URL from the user config as the contact', () => {
    expect(strategy.contactResolution).toEqual({ type: 'user-config', field: 'serverUrl' });
  });

  it('keeps the app token secret', () => {
    expect(secretFieldPaths(strategy.userConfig!.schema)).toEqual([['appToken']]);
  });
});
