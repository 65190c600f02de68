import type { Principal, RateLimit } from '@checkline/core';
import { memoryRateLimiter, refusedAsTooManyRequests } from '@checkline/core';

/** Thirty runs by hand a minute per caller: plenty for people, too few to scan a network. */
export const defaultRunRateLimit: RateLimit = { points: 30, durationSeconds: 60 };

/** Throws TOO_MANY_REQUESTS (with `retryAfter`) when the caller may not run a check now. */
export type RunGuard = (principal: Principal) => Promise<void>;

/**
 * A guard that counts each caller's `runHealthCheck` calls in this process and refuses them past
 * the budget; `false` counts nothing.
 */
export function runRateLimiter(limit: RateLimit | false): RunGuard {
  const limiter = memoryRateLimiter(limit);
  return async function assertMayRun(principal: Principal): Promise<void> {
    await limiter
      ?.consume(`${principal.kind}:${principal.id ?? ''}`)
      .catch(refusedAsTooManyRequests);
  };
}
