import type { Principal } from '@checkline/core';
import { tooManyRequests } from '@checkline/core/contract';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** A budget of `points` calls per `durationSeconds`. */
export interface RunRateLimit {
  points: number;
  durationSeconds: number;
}

/** Thirty runs by hand a minute per caller: plenty for people, too few to scan a network. */
export const defaultRunRateLimit: RunRateLimit = { points: 30, durationSeconds: 60 };

/** Throws TOO_MANY_REQUESTS (with `retryAfter`) when the caller may not run a check now. */
export type RunGuard = (principal: Principal) => Promise<void>;

/**
 * A guard that counts each caller's `runHealthCheck` calls in this process and refuses them past
 * the budget; `false` counts nothing.
 */
export function runRateLimiter(limit: RunRateLimit | false): RunGuard {
  const limiter =
    limit === false
      ? undefined
      : new RateLimiterMemory({ points: limit.points, duration: limit.durationSeconds });
  return async function assertMayRun(principal: Principal): Promise<void> {
    if (!limiter) return;
    await limiter.consume(`${principal.kind}:${principal.id ?? ''}`).catch((error: unknown) => {
      throw error instanceof RateLimiterRes ? tooManyRequests(error.msBeforeNext) : error;
    });
  };
}
