import { createEgress } from '@checkline/net';
import { secretFieldPaths } from '@checkline/notification-node';
import type { FakeService } from '@checkline/notification-node/testing';
import {
  jsonBody,
  loopbackEgress,
  sendContextFor,
  startFakeService,
} from '@checkline/notification-node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NTFY_MESSAGE_BYTES, PRIORITY_BY_IMPORTANCE } from './message.ts';
import { createNtfyStrategy } from './strategy.ts';

const strategy = createNtfyStrategy({ egress: loopbackEgress() });
const ACCESS_TOKEN = 'tk_s3cretaccesstoken';
const TOPIC = 'alerts-x7Qp2mZr';

let ntfy: FakeService;
let config: Record<string, unknown>;
beforeAll(async () => {
  // ntfy: JSON publishing to the root; a protected topic wants the Bearer token.
  ntfy = await startFakeService((request) =>
    request.headers.authorization === `Bearer ${ACCESS_TOKEN}`
      ? { status: 200, body: { id: 'hwQ2YpKdmg', event: 'message', topic: TOPIC } }
      : { status: 403, body: { code: 40301, http: 403, error: 'forbidden' } },
  );
  config = {
    defaultServerUrl: 'https://ntfy.sh',
    webhookHosts: [new URL(ntfy.url).host],
    requireHttps: false,
  };
});
afterAll(() => ntfy.close());

function send(notification = {}, overrides: Record<string, unknown> = {}) {
  const userConfig = { serverUrl: ntfy.url, topic: TOPIC, accessToken: ACCESS_TOKEN, ...overrides };
  return strategy.send(
    sendContextFor(strategy, { contact: TOPIC, config, userConfig, notification }),
  );
}

describe('ntfy strategy', () => {
  it('publishes JSON to the user server with priority by importance and the action as click URL', async () => {
    const result = await send({
      body: 'Since **12:00**',
      importance: 'critical',
      action: { label: 'Open check', url: 'https://status.example/checks/1' },
    });
    expect(result).toEqual({ success: true });
    const request = ntfy.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/');
    expect(request.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(jsonBody(request)).toEqual({
      topic: TOPIC,
      title: 'Checkout is down',
      message: 'Since 12:00',
      priority: 5,
      tags: ['rotating_light'],
      markdown: false,
      click: 'https://status.example/checks/1',
      actions: [
        {
          action: 'view',
          label: 'Open check',
          url: 'https://status.example/checks/1',
          clear: true,
        },
      ],
    });
  });

  it('maps warning and info to high and default priority', async () => {
    await send({ importance: 'warning' });
    expect(jsonBody(ntfy.requests.at(-1)).priority).toBe(PRIORITY_BY_IMPORTANCE.warning);
    await send({ importance: 'info' });
    expect(jsonBody(ntfy.requests.at(-1)).priority).toBe(3);
  });

  it(`keeps the message within ${NTFY_MESSAGE_BYTES} bytes`, async () => {
    await send({ body: 'Störung € '.repeat(1_000) });
    const message = jsonBody(ntfy.requests.at(-1)).message as string;
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(NTFY_MESSAGE_BYTES);
    expect(Buffer.byteLength(message)).toBeGreaterThan(NTFY_MESSAGE_BYTES - 400);
  });

  it('answers a 429 with Retry-After as a retry no sooner than asked', async () => {
    ntfy.answerNext({
      status: 429,
      headers: { 'retry-after': '12' },
      body: { code: 42901, http: 429, error: 'limit reached: too many requests' },
    });
    const result = await send();
    expect(result).toMatchObject({ success: false, retryAfterMs: 12_000 });
    expect(result.permanent).toBeUndefined();
  });

  it('fails at once when the topic refuses the token (403), quoting no secret', async () => {
    const result = await send({}, { accessToken: 'tk_wrongtokenvalue' });
    expect(result).toMatchObject({
      success: false,
      permanent: true,
      error: expect.stringContaining('403'),
    });
    expect(result.error).not.toContain('tk_wrongtokenvalue');
    expect(result.error).not.toContain(TOPIC);
  });

  it("refuses a user's server outside the allowed hosts before any request", async () => {
    const before = ntfy.requests.length;
    const result = await send({}, { serverUrl: 'http://10.0.0.1:8080' });
    expect(result).toMatchObject({
      success: false,
      permanent: true,
      error: expect.stringContaining('not among'),
    });
    expect(ntfy.requests.length).toBe(before);
  });

  it('takes the topic from the user config as the contact', () => {
    expect(strategy.contactResolution).toEqual({ type: 'user-config', field: 'topic' });
  });

  it('refuses a private server address as the user saves it', async () => {
    const guarded = createNtfyStrategy({ egress: createEgress() });
    const issues = await guarded.validateConfig!({
      layer: 'userConfig',
      value: { serverUrl: 'http://169.254.169.254/', topic: TOPIC },
    });
    expect(issues).toEqual([
      { path: 'serverUrl', message: expect.stringContaining('169.254.169.254') },
    ]);
  });

  it('keeps the topic and the access token secret', () => {
    expect(secretFieldPaths(strategy.userConfig!.schema)).toEqual([['topic'], ['accessToken']]);
  });
});
