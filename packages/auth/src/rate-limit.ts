import { tooManyRequests } from '@checkline/core/contract';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimit, ResolvedAuthConfig } from './config.ts';

const limiter = (limit: RateLimit | false) =>
  limit === false
    ? undefined
    : new RateLimiterMemory({ points: limit.points, duration: limit.durationSeconds });

/** Rethrows a limiter's refusal as TOO_MANY_REQUESTS; anything else as it is. */
function refused(error: unknown): never {
  if (error instanceof RateLimiterRes) throw tooManyRequests(error.msBeforeNext);
  throw error;
}

/** The caller's IP from the configured header; `unknown` when it is absent. */
export function clientIp(request: Request, header: string): string {
  const value = request.headers.get(header);
  if (!value) return 'unknown';
  // Behind one proxy that appends to X-Forwarded-For, the last entry is the one it saw.
  const entries = value.split(',');
  return entries[entries.length - 1]!.trim() || 'unknown';
}

/** The two budgets of API.md 2: failed authentications per client IP, calls per key. */
export class RateLimits {
  readonly #failedAuth: RateLimiterMemory | undefined;
  readonly #calls: RateLimiterMemory | undefined;

  constructor(config: ResolvedAuthConfig['rateLimits']) {
    this.#failedAuth = limiter(config.failedAuthPerIp);
    this.#calls = limiter(config.callsPerKey);
  }

  /** Throws TOO_MANY_REQUESTS while `ip` has spent its failed-authentication budget. */
  async assertMayAuthenticate(ip: string): Promise<void> {
    if (!this.#failedAuth) return;
    const state = await this.#failedAuth.get(ip);
    if (state && state.consumedPoints >= this.#failedAuth.points) {
      throw tooManyRequests(state.msBeforeNext);
    }
  }

  /** Counts a failed authentication; throws TOO_MANY_REQUESTS when it goes over the budget. */
  async recordFailure(ip: string): Promise<void> {
    await this.#failedAuth?.consume(ip).catch(refused);
  }

  /** Counts one call with an application key; throws TOO_MANY_REQUESTS over the budget. */
  async recordCall(applicationId: string): Promise<void> {
    await this.#calls?.consume(applicationId).catch(refused);
  }
}
