import { randomBytes, randomUUID } from 'node:crypto';
import { Keyring } from '@checkline/core';
import { otherSpellingOfSameBytes } from '@checkline/core/testing';
import { describe, expect, it } from 'vitest';
import { signAckToken, verifyAckToken } from './ack-link.ts';

const claim = { alertId: randomUUID(), userId: randomUUID() };
const inAnHour = () => new Date(Date.now() + 3_600_000);

describe('acknowledgement links', () => {
  describe('works', () => {
    it('answers the alert and the person a token names, under the current or a former key', () => {
      const old = randomBytes(32);
      const before = new Keyring(old);
      const token = signAckToken(before, { ...claim, expiresAt: inAnHour() });
      expect(verifyAckToken(before, token)).toEqual(claim);
      const rotated = new Keyring(randomBytes(32), [old]);
      expect(verifyAckToken(rotated, token)).toEqual(claim);
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses an expired token, another keyring’s, and any altered character', () => {
      const keyring = Keyring.ephemeral();
      const expired = signAckToken(keyring, { ...claim, expiresAt: new Date(Date.now() - 1) });
      expect(verifyAckToken(keyring, expired)).toBeUndefined();
      const token = signAckToken(keyring, { ...claim, expiresAt: inAnHour() });
      expect(verifyAckToken(Keyring.ephemeral(), token)).toBeUndefined();
      for (let index = 0; index < token.length; index += 7) {
        const swapped = token[index] === 'A' ? 'B' : 'A';
        const altered = `${token.slice(0, index)}${swapped}${token.slice(index + 1)}`;
        if (altered !== token) expect(verifyAckToken(keyring, altered)).toBeUndefined();
      }
      expect(verifyAckToken(keyring, otherSpellingOfSameBytes(token))).toBeUndefined();
      expect(verifyAckToken(keyring, '')).toBeUndefined();
      expect(verifyAckToken(keyring, `${token}.extra`)).toBeUndefined();
    });
  });
});
