import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header carrying a webhook request's signature. */
export const SIGNATURE_HEADER = 'X-Checkline-Signature';

const hmacOf = (secret: string, timestamp: number, body: string | Uint8Array) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

/**
 * The signature header's value for `body` sent at `timestamp` (Unix seconds):
 * `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<body>" under the signing secret>`.
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${hmacOf(secret, timestamp, body).toString('hex')}`;
}

export interface VerifyOptions {
  /** How far the signature's time may lie from now, either way. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch. Default: the clock. */
  now?: number;
}

/**
 * For receivers: whether `header` (the `X-Checkline-Signature` value) signs `body` (the raw
 * request body, exactly as received) under `secret`, within `toleranceSeconds` of now (which
 * refuses replays of old requests). Compared in constant time; any `v1` entry may match (several
 * appear while a secret is being changed).
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  body: string | Uint8Array,
  options: VerifyOptions = {},
): boolean {
  if (!header) return false;
  let timestamp: number | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) candidates.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  const now = (options.now ?? Date.now()) / 1_000;
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = hmacOf(secret, timestamp, body);
  let matched = false;
  for (const candidate of candidates) matched = timingSafeEqual(candidate, expected) || matched;
  return matched;
}
