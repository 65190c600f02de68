import { randomBytes, randomUUID } from 'node:crypto';
import { Keyring } from '@checkline/core';
import { otherSpellingOfSameBytes } from '@checkline/core/testing';
import { describe, expect, it } from 'vitest';
import {
  hashOfToken,
  isConfirmTokenShaped,
  newConfirmToken,
  signUnsubscribeToken,
  verifyUnsubscribeToken,
} from './tokens.ts';

describe('subscription tokens', () => {
  it('makes confirmation tokens whose hash alone is kept', () => {
    const { token, hash } = newConfirmToken();
    expect(isConfirmTokenShaped(token)).toBe(true);
    expect(hash).toBe(hashOfToken(token));
    expect(hash).not.toContain(token);
    expect(newConfirmToken().token).not.toBe(token);
  });

  it('verifies its own unsubscribe tokens, under an old key too, and nothing altered', () => {
    const old = randomBytes(32);
    const keyring = new Keyring(randomBytes(32), [old]);
    const id = randomUUID();
    const token = signUnsubscribeToken(keyring, id);
    expect(verifyUnsubscribeToken(keyring, token)).toBe(id);
    expect(verifyUnsubscribeToken(keyring, signUnsubscribeToken(new Keyring(old), id))).toBe(id);

    const [, mac] = token.split('.') as [string, string];
    const forged = [
      `${randomUUID()}.${mac}`,
      `${id}.${randomBytes(32).toString('base64url')}`,
      signUnsubscribeToken(new Keyring(randomBytes(32)), id),
      id,
      `${id}.`,
      `${id}.${mac}.${mac}`,
      otherSpellingOfSameBytes(token),
      `not-a-uuid.${mac}`,
      '',
    ];
    for (const candidate of forged)
      expect(verifyUnsubscribeToken(keyring, candidate)).toBeUndefined();
  });
});
