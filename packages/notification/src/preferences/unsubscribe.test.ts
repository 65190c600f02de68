import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Keyring } from '@checkline/core';
import { otherSpellingOfSameBytes } from '@checkline/core/testing';
import {
  signUnsubscribeToken,
  unsubscribeUrl,
  UNSUBSCRIBE_PATH,
  verifyUnsubscribeToken,
} from './unsubscribe.ts';

const key = randomBytes(32);
const keyring = new Keyring(key);
const claim = { userId: randomUUID(), strategyId: 'notification-smtp.smtp' };
const now = new Date('2026-11-23T12:00:00Z');
const inADay = new Date(now.getTime() + 86_400_000);

/** The token with one character of `part` (0 payload, 1 MAC) changed. */
function altered(token: string, part: 0 | 1): string {
  const parts = token.split('.');
  const text = parts[part]!;
  const index = Math.floor(text.length / 2);
  parts[part] = `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;
  return parts.join('.');
}

describe('unsubscribe tokens', () => {
  describe('works', () => {
    it('names the user and channel it was signed for until it expires', () => {
      const token = signUnsubscribeToken(keyring, { ...claim, expiresAt: inADay });
      expect(verifyUnsubscribeToken(keyring, token, now)).toEqual(claim);
    });

    it('keeps working after a key rotation while the old key is kept', () => {
      const token = signUnsubscribeToken(keyring, { ...claim, expiresAt: inADay });
      const rotated = new Keyring(randomBytes(32), [key]);
      expect(verifyUnsubscribeToken(rotated, token, now)).toEqual(claim);
    });

    it('builds a link on BASE_URL valid for the configured time', () => {
      const url = unsubscribeUrl(
        { keyring, baseUrl: 'https://status.example', unsubscribeLinkMs: 60_000 },
        claim,
        now,
      );
      expect(url.startsWith(`https://status.example${UNSUBSCRIBE_PATH}/`)).toBe(true);
      const token = url.slice(url.lastIndexOf('/') + 1);
      expect(verifyUnsubscribeToken(keyring, token, new Date(now.getTime() + 59_000))).toEqual(
        claim,
      );
      expect(
        verifyUnsubscribeToken(keyring, token, new Date(now.getTime() + 61_000)),
      ).toBeUndefined();
    });
  });

  describe('security', () => {
    it('refuses an expired token', () => {
      const token = signUnsubscribeToken(keyring, { ...claim, expiresAt: now });
      expect(verifyUnsubscribeToken(keyring, token, now)).toBeUndefined();
    });

    it('refuses a token whose payload or MAC was altered', () => {
      const token = signUnsubscribeToken(keyring, { ...claim, expiresAt: inADay });
      expect(verifyUnsubscribeToken(keyring, altered(token, 0), now)).toBeUndefined();
      expect(verifyUnsubscribeToken(keyring, altered(token, 1), now)).toBeUndefined();
      expect(verifyUnsubscribeToken(keyring, otherSpellingOfSameBytes(token), now)).toBeUndefined();
    });

    it('refuses a payload naming another user re-signed without our key', () => {
      const forged = signUnsubscribeToken(Keyring.ephemeral(), {
        ...claim,
        expiresAt: inADay,
      });
      expect(verifyUnsubscribeToken(keyring, forged, now)).toBeUndefined();
    });

    it('refuses a later expiry spliced onto a valid MAC', () => {
      const token = signUnsubscribeToken(keyring, { ...claim, expiresAt: inADay });
      const longer = signUnsubscribeToken(Keyring.ephemeral(), {
        ...claim,
        expiresAt: new Date(now.getTime() + 10 * 86_400_000),
      });
      const spliced = `${longer.split('.')[0]}.${token.split('.')[1]}`;
      expect(verifyUnsubscribeToken(keyring, spliced, now)).toBeUndefined();
    });

    it('refuses malformed tokens without throwing', () => {
      for (const token of ['', '.', 'abc', 'a.b', `${'a'.repeat(5000)}.${'b'.repeat(43)}`]) {
        expect(verifyUnsubscribeToken(keyring, token, now)).toBeUndefined();
      }
    });
  });
});
