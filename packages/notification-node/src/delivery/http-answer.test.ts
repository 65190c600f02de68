import { describe, expect, it } from 'vitest';
import { deliveryResultOf, parseRetryAfter, unreachable } from './http-answer.ts';

const answer = (status: number, body = '', headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : body, { status, headers });

describe('parseRetryAfter', () => {
  it('reads delay seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('deliveryResultOf', () => {
  it('counts 2xx as sent', async () => {
    expect(await deliveryResultOf(answer(200, 'ok'), 'Chat')).toEqual({ success: true });
    expect(await deliveryResultOf(answer(204), 'Chat')).toEqual({ success: true });
  });

  it('retries 429 no sooner than Retry-After, and 5xx, quoting the answer', async () => {
    expect(
      await deliveryResultOf(answer(429, 'slow down', { 'retry-after': '7' }), 'Chat'),
    ).toEqual({ success: false, error: 'Chat answered HTTP 429: slow down', retryAfterMs: 7_000 });
    expect(await deliveryResultOf(answer(429, '{}'), 'Chat', { retryAfterMs: 2_000 })).toEqual({
      success: false,
      error: 'Chat answered HTTP 429: {}',
      retryAfterMs: 2_000,
    });
    expect(await deliveryResultOf(answer(503, ''), 'Chat')).toEqual({
      success: false,
      error: 'Chat answered HTTP 503',
    });
  });

  it('fails a redirect permanently, saying it is not followed', async () => {
    const moved = new Response('moved', {
      status: 302,
      headers: { location: 'http://elsewhere/' },
    });
    expect(await deliveryResultOf(moved, 'Chat')).toEqual({
      success: false,
      error: 'Chat answered HTTP 302: redirects are not followed',
      permanent: true,
    });
  });

  it('fails other 4xx permanently, with the start of a long answer only', async () => {
    const result = await deliveryResultOf(answer(404, 'x'.repeat(5_000)), 'Chat');
    expect(result).toMatchObject({ success: false, permanent: true });
    expect(result.error!.length).toBeLessThan(400);
  });
});

describe('unreachable', () => {
  it('names the network error, to be retried', () => {
    const error = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    });
    expect(unreachable('Chat', error)).toEqual({
      success: false,
      error: 'Chat could not be reached: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9',
    });
  });
});
