import type { Database } from '@checkline/db';
import type { Principal, RateLimit } from '@checkline/core';
import { budgetFor } from '@checkline/core';

/** Thirty runs by hand a minute per caller: plenty for people, too few to scan a network. */
export const defaultRunRateLimit: RateLimit = { points: 30, durationSeconds: 60 };

/** Throws TOO_MANY_REQUESTS (with `retryAfter`) when the caller may not run a check now. */
export type RunGuard = (principal: Principal) => Promise<void>;

/**
 * A guard that counts each caller's `runHealthCheck` calls and refuses them past the budget;
 * `false` counts nothing. In memory until `shareIn` moves the count to the database every process
 * shares.
 */
export function runRateLimiter(limit: RateLimit | false) {
  const budget = budgetFor(limit, 'healthcheck-run');
  const assertMayRun: RunGuard = (principal) =>
    budget.consume(`${principal.kind}:${principal.id ?? ''}`);
  return { assertMayRun, shareIn: (db: Database) => budget.shareIn(db) };
}
