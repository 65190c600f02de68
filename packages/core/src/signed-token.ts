import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import type { Keyring } from './keyring.ts';

/** An HMAC-SHA256 in base64url: 32 bytes, 43 characters, no padding. */
const MAC_TEXT = /^[A-Za-z0-9_-]{43}$/;

/** The HMAC-SHA256 of `payload` under `key`, as base64url text. */
export const macText = (key: Uint8Array, payload: string): string =>
  createHmac('sha256', key).update(payload, 'utf8').digest('base64url');

/**
 * Whether `presented` is the MAC of `payload` under one of `keys`, in constant time. The text is
 * compared, not the decoded bytes: base64url leaves the last character's two low bits unused, so
 * comparing bytes would accept four spellings of one MAC and let a token be altered unnoticed.
 */
export function macMatches(
  keys: readonly Uint8Array[],
  payload: string,
  presented: string,
): boolean {
  if (!MAC_TEXT.test(presented)) return false;
  const given = Buffer.from(presented, 'latin1');
  let matched = false;
  for (const key of keys) {
    if (timingSafeEqual(Buffer.from(macText(key, payload), 'latin1'), given)) matched = true;
  }
  return matched;
}

/** Signs and verifies one kind of self-contained, expiring link token. */
export interface SignedClaimToken<Claim> {
  /** `{payload}.{mac}`: the claim and its expiry as base64url JSON, signed under the current key. */
  sign(keyring: Keyring, claim: Claim, expiresAt: Date): string;
  /** The claim of a token we signed, unexpired at `now`; undefined for anything else. */
  verify(keyring: Keyring, token: string, now?: Date): Claim | undefined;
}

/**
 * Link tokens that need nothing stored: a JSON claim with an expiry (`e`, Unix seconds), signed
 * with a key derived from the keyring for `purpose` (so a token of one kind is never accepted as
 * another, and rotating ENCRYPTION_KEY keeps old links working while the old key is kept). The
 * MAC is checked before the payload is parsed.
 */
export function signedClaimToken<Schema extends z.ZodObject>(options: {
  purpose: string;
  claim: Schema;
  maxPayloadChars: number;
}): SignedClaimToken<z.output<Schema>> {
  const { purpose, claim: schema, maxPayloadChars } = options;
  const shape = new RegExp(`^([A-Za-z0-9_-]{1,${maxPayloadChars}})\\.([A-Za-z0-9_-]{43})$`);
  return {
    sign(keyring, claim, expiresAt) {
      const body = { ...claim, e: Math.floor(expiresAt.getTime() / 1_000) };
      const payload = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
      const [key] = keyring.derivedKeys(purpose);
      return `${payload}.${macText(key!, payload)}`;
    },
    verify(keyring, token, now = new Date()) {
      const match = shape.exec(token);
      if (!match || !macMatches(keyring.derivedKeys(purpose), match[1]!, match[2]!)) return;
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8'));
      } catch {
        return;
      }
      const expiry = (decoded as { e?: unknown } | null)?.e;
      if (
        typeof expiry !== 'number' ||
        !Number.isInteger(expiry) ||
        expiry * 1_000 <= now.getTime()
      )
        return;
      const parsed = schema.safeParse(decoded);
      return parsed.success ? parsed.data : undefined;
    },
  };
}
