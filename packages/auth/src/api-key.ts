import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from './sha256.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 43 base62 characters carry 256 bits. */
export const SECRET_LENGTH = 43;
/** The largest multiple of 62 below 256: bytes from here up are redrawn, so no character is favoured. */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

const KEY_PATTERN =
  /^ck_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([A-Za-z0-9]{32,128})$/;
const MAX_KEY_LENGTH = 3 + 36 + 1 + 128;

/** `length` characters of [A-Za-z0-9], each uniformly drawn (rejection sampling). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length - out.length + 8)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export interface ApiKey {
  applicationId: string;
  /** The whole key, `ck_{applicationId}_{randomSecret}`. */
  key: string;
}

export function newApplicationId(): string {
  return randomUUID();
}

export function generateApiKey(applicationId: string): ApiKey {
  return { applicationId, key: `ck_${applicationId}_${randomBase62(SECRET_LENGTH)}` };
}

/** The application id of a well-formed key; undefined for anything else. Never throws. */
export function parseApiKey(value: string): string | undefined {
  if (value.length > MAX_KEY_LENGTH) return undefined;
  return KEY_PATTERN.exec(value)?.[1];
}

/** SHA-256 of the whole key, hex: the only form in which a key is stored. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
