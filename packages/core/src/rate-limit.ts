import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
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

/** Rethrows a limiter's refusal as TOO_MANY_REQUESTS (with `retryAfter`); anything else as it is. */
export function refusedAsTooManyRequests(error: unknown): never {
  if (error instanceof RateLimiterRes) throw tooManyRequests(error.msBeforeNext);
  throw error;
}
