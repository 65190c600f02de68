import { badRequest } from './errors.ts';

/** The request header naming a retryable mutation (docs/api.md, "Safe retries"). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The response header of an answer replayed from the first attempt. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** How long a key's first answer is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The key of this request, shared by the request's calls; `replayed` is set by a replay. */
export interface IdempotencyRequest {
  key: string;
  replayed: boolean;
}

/** The request's `Idempotency-Key`, or BAD_REQUEST when it is not 1-255 printable characters. */
export function idempotencyOf(headers: Headers): IdempotencyRequest | undefined {
  const key = headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw badRequest(
      `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters (a UUID is a good key)`,
      [{ path: IDEMPOTENCY_HEADER, message: 'Not 1 to 255 printable ASCII characters' }],
    );
  }
  return { key, replayed: false };
}
