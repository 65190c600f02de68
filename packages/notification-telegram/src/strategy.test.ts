import { secretFieldPaths } from '@checkline/notification-node';
import type { FakeService } from '@checkline/notification-node/testing';
import {
  jsonBody,
  loopbackEgress,
  sendContextFor,
  startFakeService,
} from '@checkline/notification-node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTelegramStrategy } from './strategy.ts';
import { TELEGRAM_TEXT_LIMIT } from './telegram-html.ts';

const strategy = createTelegramStrategy({ egress: loopbackEgress() });
const BOT_TOKEN = '4242:AAH-s3cret_bot_token';

let telegram: FakeService;
let config: { botToken: string; apiBaseUrl: string };
beforeAll(async () => {
  // The Bot API: the token in the path; a wrong token is 401 Unauthorized.
  telegram = await startFakeService((request) =>
    request.url === `/bot${BOT_TOKEN}/sendMessage`
      ? { status: 200, body: { ok: true, result: { message_id: 7 } } }
      : { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } },
  );
  config = { botToken: BOT_TOKEN, apiBaseUrl: telegram.url };
});
afterAll(() => telegram.close());

const send = (notification = {}, overrides: Partial<typeof config> = {}) =>
  strategy.send(
    sendContextFor(strategy, {
      contact: '123456789',
      config: { ...config, ...overrides },
      notification,
    }),
  );

describe('Telegram strategy', () => {
  it('sends HTML of Telegram tags only, the action as an inline URL button', async () => {
    const result = await send({
      title: 'Checkout <down> & out',
      body: '# Status\n\nSince **12:00**, <script>alert(1)</script> see [docs](https://docs.example/a?b=1&c=2)',
      action: { label: 'Open check', url: 'https://status.example/checks/1' },
    });
    expect(result).toEqual({ success: true });
    const request = telegram.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(request.headers['content-type']).toBe('application/json');
    const body = jsonBody(request);
    expect(body).toMatchObject({
      chat_id: '123456789',
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      reply_markup: {
        inline_keyboard: [[{ text: 'Open check', url: 'https://status.example/checks/1' }]],
      },
    });
    const text = body.text as string;
    expect(text).not.toContain('<script');
    // Headings become bold (Telegram has no <h1>), raw HTML stays text, links keep their href.
    expect(text).toBe(
      '🔴 <b>Checkout &lt;down&gt; &amp; out</b>\n\n<b>Status</b>\n\n' +
        'Since <strong>12:00</strong>, &lt;script&gt;alert(1)&lt;/script&gt; ' +
        'see <a href="https://docs.example/a?b=1&amp;c=2">docs</a>',
    );
  });

  it(`keeps the text within ${TELEGRAM_TEXT_LIMIT} characters`, async () => {
    await send({ body: 'word '.repeat(3_000) });
    const text = jsonBody(telegram.requests.at(-1)).text as string;
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(text.length).toBeGreaterThan(TELEGRAM_TEXT_LIMIT - 200);
  });

  it('answers a flood limit with parameters.retry_after as retryAfterMs', async () => {
    telegram.answerNext({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 9',
        parameters: { retry_after: 9 },
      },
    });
    const result = await send();
    expect(result).toMatchObject({ success: false, retryAfterMs: 9_000 });
    expect(result.permanent).toBeUndefined();
  });

  it('fails at once when the user blocked the bot (403)', async () => {
    telegram.answerNext({
      status: 403,
      body: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
    });
    expect(await send()).toMatchObject({
      success: false,
      permanent: true,
      error: expect.stringContaining('bot was blocked by the user'),
    });
  });

  it('fails at once for a wrong bot token, without quoting the token', async () => {
    const result = await send({}, { botToken: '4242:AAH-wrong_token_value' });
    expect(result).toMatchObject({ success: false, permanent: true });
    expect(result.error).not.toContain('wrong_token_value');
  });

  it('keeps the bot token out of errors when Telegram cannot be reached', async () => {
    const gone = await startFakeService();
    await gone.close();
    const result = await send({}, { apiBaseUrl: gone.url });
    expect(result).toMatchObject({
      success: false,
      error: expect.stringContaining('could not be reached'),
    });
    expect(result.error).not.toContain(BOT_TOKEN);
  });

  it('marks the bot token secret and defaults to the real Bot API', () => {
    expect(secretFieldPaths(strategy.config.schema)).toEqual([['botToken']]);
    expect(strategy.config.schema.parse({ botToken: BOT_TOKEN }).apiBaseUrl).toBe(
      'https://api.telegram.org',
    );
  });

  it('accepts only numeric chat ids or @channel names', () => {
    const { schema } = strategy.userConfig!;
    expect(schema.safeParse({ chatId: '-1001234567890' }).success).toBe(true);
    expect(schema.safeParse({ chatId: '@status_channel' }).success).toBe(true);
    expect(schema.safeParse({ chatId: '12; drop' }).success).toBe(false);
  });
});
