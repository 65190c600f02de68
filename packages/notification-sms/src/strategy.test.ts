import { secretFieldPaths } from '@checkline/notification-node';
import type { FakeService } from '@checkline/notification-node/testing';
import {
  loopbackEgress,
  sendContextFor,
  startFakeService,
} from '@checkline/notification-node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsSize } from './segments.ts';
import { createSmsStrategy } from './strategy.ts';

const strategy = createSmsStrategy({ egress: loopbackEgress() });
const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
const AUTH_TOKEN = 'twilio-s3cret-auth-token';
const MESSAGES_PATH = `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`;

let twilio: FakeService;
let config: Record<string, unknown>;
beforeAll(async () => {
  const expected = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;
  // Twilio: Basic auth with the account SID and auth token; 201 and the message resource.
  twilio = await startFakeService((request) =>
    request.headers.authorization !== expected
      ? { status: 401, body: { code: 20003, message: 'Authenticate', status: 401 } }
      : { status: 201, body: { sid: 'SM1', status: 'queued' } },
  );
  config = {
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    from: '+14155550100',
    apiBaseUrl: twilio.url,
  };
});
afterAll(() => twilio.close());

const send = (notification = {}, overrides: Record<string, unknown> = {}) =>
  strategy.send(
    sendContextFor(strategy, {
      contact: '+447700900123',
      config: { ...config, ...overrides },
      notification,
    }),
  );
const lastForm = () => new URLSearchParams(twilio.requests.at(-1)!.body);

describe('SMS strategy (Twilio)', () => {
  it('posts a form with To, From and a plain-text Body ending with the action link', async () => {
    const result = await send({
      body: 'Since **12:00** <b>not html</b>',
      action: { label: 'Open check', url: 'https://status.example/checks/1' },
    });
    expect(result).toEqual({ success: true });
    const request = twilio.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(MESSAGES_PATH);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = lastForm();
    expect(form.get('To')).toBe('+447700900123');
    expect(form.get('From')).toBe('+14155550100');
    const body = form.get('Body')!;
    expect(body.startsWith('Checkout is down\n')).toBe(true);
    expect(body).toContain('Since 12:00');
    expect(body).not.toContain('**');
    expect(body.endsWith('\nOpen check: https://status.example/checks/1')).toBe(true);
  });

  it('keeps a long text within the configured segments (default 3), the link kept', async () => {
    await send({
      body: 'word '.repeat(400),
      action: { label: 'Open', url: 'https://status.example/x' },
    });
    const body = lastForm().get('Body')!;
    expect(smsSize(body)).toMatchObject({ encoding: 'GSM-7', segments: 3 });
    expect(body.endsWith('...\nOpen: https://status.example/x')).toBe(true);

    await send({ body: 'Ünïcödé ✓ '.repeat(100) }, { maxSegments: 1 });
    expect(smsSize(lastForm().get('Body')!)).toMatchObject({ encoding: 'UCS-2', segments: 1 });
  });

  it('answers a 429 with Retry-After as a retry no sooner than asked', async () => {
    twilio.answerNext({
      status: 429,
      headers: { 'retry-after': '30' },
      body: { code: 20429, message: 'Too Many Requests', status: 429 },
    });
    const result = await send();
    expect(result).toMatchObject({ success: false, retryAfterMs: 30_000 });
    expect(result.permanent).toBeUndefined();
  });

  it('fails at once for a number Twilio refuses (400, code 21211)', async () => {
    twilio.answerNext({
      status: 400,
      body: {
        code: 21211,
        message: "The 'To' number +447700900123 is not a valid phone number.",
        status: 400,
      },
    });
    expect(await send()).toMatchObject({
      success: false,
      permanent: true,
      error: expect.stringContaining('21211'),
    });
  });

  it('fails at once for a wrong auth token, which no error quotes', async () => {
    const result = await send({}, { authToken: 'a-wrong-token-value' });
    expect(result).toMatchObject({ success: false, permanent: true });
    expect(result.error).not.toContain('a-wrong-token-value');
    expect(result.error).not.toContain(AUTH_TOKEN);
  });

  it('marks the auth token secret', () => {
    expect(secretFieldPaths(strategy.config.schema)).toEqual([['authToken']]);
  });

  it('accepts only E.164 phone numbers', () => {
    const { schema } = strategy.userConfig!;
    expect(schema.safeParse({ phone: '+447700900123' }).success).toBe(true);
    for (const phone of ['07700900123', '+44 7700 900123', '+0447700900123', '+1234567890123456']) {
      expect({ phone, ok: schema.safeParse({ phone }).success }).toEqual({ phone, ok: false });
    }
  });
});
