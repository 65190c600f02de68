import type { Database } from '@checkline/db';
import { rateLimits } from '@checkline/db';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from './errors.ts';

/** A budget of `points` per `durationSeconds`; options take `false` to turn a limit off. */
export interface RateLimit {
  points: number;
  durationSeconds: number;
}

/** A limiter counting in this process for `limit`; undefined when the limit is turned off. */
export function memoryRateLimiter(
  limit: RateLimit | false,
  keyPrefix?: string,
): RateLimiterMemory | undefined {
  if (limit === false) return undefined;
  return new RateLimiterMemory({
    ...(keyPrefix !== undefined && { keyPrefix }),
    points: limit.points,
    duration: limit.durationSeconds,
  });
}

/**
 * A limiter every process on the database counts against together (PostgreSQL). A key past its
 * budget is refused from memory until its window ends, without asking the database again; while
 * the database does not answer, this process's own count stands in.
 */
export function sharedRateLimiter(
  limit: RateLimit | false,
  keyPrefix: string,
  db: Database,
): RateLimiterAbstract | undefined {
  if (limit === false) return undefined;
  return new RateLimiterDrizzle({
    storeClient: db,
    schema: rateLimits,
    keyPrefix,
    points: limit.points,
    duration: limit.durationSeconds,
    inMemoryBlockOnConsumed: limit.points + 1,
    insuranceLimiter: memoryRateLimiter(limit, keyPrefix),
    // Its own sweep timer would outlive the server; the server sweeps (rate-limit-sweep.ts).
    clearExpiredByTimeout: false,
  });
}

/** Rethrows a limiter's refusal as TOO_MANY_REQUESTS (with `retryAfter`); anything else as it is. */
export function refusedAsTooManyRequests(error: unknown): never {
  if (error instanceof RateLimiterRes) throw tooManyRequests(error.msBeforeNext);
  throw error;
}

/**
 * Counts `points` of `key` against `limit` in `db`, the caller's own transaction, and throws
 * TOO_MANY_REQUESTS past it: the count commits or rolls back with the work it pays for (a refused
 * call spends nothing), and a request holding a pooled connection for its transaction never waits
 * for a second one (several such requests would wait on each other).
 */
export async function consumeInTransaction(
  db: Database,
  limit: RateLimit,
  keyPrefix: string,
  key: string,
  points: number,
): Promise<void> {
  const limiter = new RateLimiterDrizzle({
    storeClient: db,
    schema: rateLimits,
    keyPrefix,
    points: limit.points,
    duration: limit.durationSeconds,
    // The limiters that live as long as the process sweep the table; this one lives for a call.
    clearExpiredByTimeout: false,
  });
  await limiter.consume(key, points).catch(refusedAsTooManyRequests);
}
