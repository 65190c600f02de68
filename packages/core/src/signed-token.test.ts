import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Keyring } from './keyring.ts';
import { macMatches, macText, signedClaimToken } from './signed-token.ts';
import { otherSpellingOfSameBytes } from './testing.ts';

const linkToken = signedClaimToken({
  purpose: 'test link v1',
  claim: z.object({ u: z.uuid() }),
  maxPayloadChars: 200,
});
const claim = { u: '0f8fad5b-d9cb-469f-a165-70867728950e' };
const now = new Date('2026-11-26T12:00:00Z');
const inAnHour = new Date(now.getTime() + 3_600_000);

describe('macMatches', () => {
  it('accepts the MAC of the payload under any of the keys', () => {
    const [first, second] = [randomBytes(32), randomBytes(32)];
    expect(macMatches([first, second], 'payload', macText(second, 'payload'))).toBe(true);
    expect(macMatches([first], 'payload', macText(second, 'payload'))).toBe(false);
    expect(macMatches([first], 'other', macText(first, 'payload'))).toBe(false);
  });

  it('refuses a second spelling of the same MAC bytes, and anything not shaped like a MAC', () => {
    const key = randomBytes(32);
    const mac = macText(key, 'payload');
    const respelled = otherSpellingOfSameBytes(mac);
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(mac, 'base64url'));
    expect(macMatches([key], 'payload', respelled)).toBe(false);
    for (const wrong of ['', `${mac}=`, mac.slice(1), `${mac}A`, `${mac.slice(0, -1)}+`])
      expect(macMatches([key], 'payload', wrong)).toBe(false);
  });
});

describe('signedClaimToken', () => {
  it('answers the claim until it expires, under the current key or a kept former one', () => {
    const old = randomBytes(32);
    const token = linkToken.sign(new Keyring(old), claim, inAnHour);
    expect(linkToken.verify(new Keyring(old), token, now)).toEqual(claim);
    expect(linkToken.verify(new Keyring(randomBytes(32), [old]), token, now)).toEqual(claim);
    expect(linkToken.verify(new Keyring(old), token, inAnHour)).toBeUndefined();
  });

  it('refuses another purpose, another keyring, an altered or respelled token and junk', () => {
    const keyring = Keyring.ephemeral();
    const token = linkToken.sign(keyring, claim, inAnHour);
    const otherPurpose = signedClaimToken({
      purpose: 'another link v1',
      claim: z.object({ u: z.uuid() }),
      maxPayloadChars: 200,
    });
    expect(otherPurpose.verify(keyring, token, now)).toBeUndefined();
    expect(linkToken.verify(Keyring.ephemeral(), token, now)).toBeUndefined();
    expect(linkToken.verify(keyring, otherSpellingOfSameBytes(token), now)).toBeUndefined();
    const [payload, mac] = token.split('.') as [string, string];
    const swap = (text: string, index: number) =>
      `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;
    expect(linkToken.verify(keyring, `${swap(payload, 3)}.${mac}`, now)).toBeUndefined();
    for (const junk of ['', token.replace('.', ''), `${token}.x`, `${'A'.repeat(201)}.${mac}`])
      expect(linkToken.verify(keyring, junk, now)).toBeUndefined();
  });

  it('refuses a correctly signed payload that is not the claim or has no valid expiry', () => {
    const keyring = Keyring.ephemeral();
    const [key] = keyring.derivedKeys('test link v1');
    const signed = (body: unknown) => {
      const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
      return `${payload}.${macText(key!, payload)}`;
    };
    const expiry = Math.floor(inAnHour.getTime() / 1_000);
    expect(linkToken.verify(keyring, signed({ ...claim, e: expiry }), now)).toEqual(claim);
    for (const body of [{ u: 'not-a-uuid', e: expiry }, claim, { ...claim, e: '1' }, null, 7])
      expect(linkToken.verify(keyring, signed(body), now)).toBeUndefined();
  });
});
