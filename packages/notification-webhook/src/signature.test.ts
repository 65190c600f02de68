import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from './signature.ts';

const SECRET = 'a-receiver-signing-secret';
const body = '{"id":"d-1","title":"Checkout is down"}';
const now = Date.parse('2026-11-23T12:00:00Z');
const t = now / 1_000;

describe('webhook signature', () => {
  describe('works', () => {
    it('is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">, as a receiver computes it', () => {
      const expected = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
      expect(signWebhook(SECRET, t, body)).toBe(`t=${t},v1=${expected}`);
    });

    it('verifies with the secret, from a string or the raw bytes, within the tolerance', () => {
      const header = signWebhook(SECRET, t, body);
      expect(verifyWebhookSignature(SECRET, header, body, { now })).toBe(true);
      expect(verifyWebhookSignature(SECRET, header, Buffer.from(body), { now })).toBe(true);
      expect(verifyWebhookSignature(SECRET, header, body, { now: now + 299_000 })).toBe(true);
    });

    it('accepts any of several v1 entries (a secret being changed)', () => {
      const old = signWebhook('the-previous-signing-secret', t, body).split(',')[1]!;
      const header = `${signWebhook(SECRET, t, body)},${old}`;
      expect(verifyWebhookSignature(SECRET, header, body, { now })).toBe(true);
      expect(verifyWebhookSignature('the-previous-signing-secret', header, body, { now })).toBe(
        true,
      );
    });
  });

  describe('refuses', () => {
    const header = signWebhook(SECRET, t, body);

    it('another secret, a changed body or a changed time', () => {
      expect(verifyWebhookSignature('another-signing-secret', header, body, { now })).toBe(false);
      expect(verifyWebhookSignature(SECRET, header, body.replace('down', 'up'), { now })).toBe(
        false,
      );
      const moved = header.replace(`t=${t}`, `t=${t + 1}`);
      expect(verifyWebhookSignature(SECRET, moved, body, { now })).toBe(false);
    });

    it('a signature older or newer than the tolerance (a replay)', () => {
      expect(verifyWebhookSignature(SECRET, header, body, { now: now + 301_000 })).toBe(false);
      expect(verifyWebhookSignature(SECRET, header, body, { now: now - 301_000 })).toBe(false);
      expect(
        verifyWebhookSignature(SECRET, header, body, { now: now + 30_000, toleranceSeconds: 10 }),
      ).toBe(false);
    });

    it.each([
      [undefined],
      [''],
      ['garbage'],
      [`t=${t}`],
      [header.split(',')[1]!],
      [`t=soon,${header.split(',')[1]!}`],
      [`t=${t},v1=${'0'.repeat(63)}`],
      [`t=${t},v0=${header.split('v1=')[1]!}`],
    ])('a malformed header %s', (value) => {
      expect(verifyWebhookSignature(SECRET, value, body, { now })).toBe(false);
    });
  });
});
