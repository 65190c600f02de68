import { isIP } from 'node:net';
import { memoryRateLimiter, refusedAsTooManyRequests } from '@checkline/core';
import { tooManyRequests } from '@checkline/core/contract';
import type { RateLimiterMemory } from 'rate-limiter-flexible';
import type { ResolvedAuthConfig } from './config.ts';

/** The header the server stamps with the socket's address; a client-sent value never survives. */
export const SOCKET_ADDRESS_HEADER = 'x-checkline-client-ip';

/**
 * The caller's address: the socket's, or behind a trusted proxy the last `X-Forwarded-For`
 * entry (the one the proxy appended). A missing or unparsable header is the proxy's own address,
 * never a fresh budget. `unknown` when the server saw no socket.
 */
export function clientIp(request: Request, trustProxy: boolean): string {
  const socket = request.headers.get(SOCKET_ADDRESS_HEADER) || 'unknown';
  if (!trustProxy) return socket;
  const forwarded = request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
  return forwarded && isIP(forwarded) ? forwarded.toLowerCase() : socket;
}

/** An account's budget key: its e-mail as sign-in compares it, known account or not. */
const accountKey = (email: string) => email.trim().toLowerCase();

async function assertWithin(limiter: RateLimiterMemory | undefined, key: string): Promise<void> {
  if (!limiter) return;
  const state = await limiter.get(key);
  if (state && state.consumedPoints >= limiter.points) throw tooManyRequests(state.msBeforeNext);
}

/**
 * The budgets of API.md 2: failed authentications per client address, failed sign-ins per
 * account (from any address), and calls per key.
 */
export class RateLimits {
  readonly #failuresPerAddress: RateLimiterMemory | undefined;
  readonly #failuresPerAccount: RateLimiterMemory | undefined;
  readonly #calls: RateLimiterMemory | undefined;

  constructor(config: ResolvedAuthConfig['rateLimits']) {
    this.#failuresPerAddress = memoryRateLimiter(config.failedAuthPerIp, 'address');
    this.#failuresPerAccount = memoryRateLimiter(config.failedLoginsPerAccount, 'account');
    this.#calls = memoryRateLimiter(config.callsPerKey, 'key');
  }

  /** Throws TOO_MANY_REQUESTS while `ip` has spent its failed-authentication budget. */
  assertMayAuthenticate(ip: string): Promise<void> {
    return assertWithin(this.#failuresPerAddress, ip);
  }

  /** Throws TOO_MANY_REQUESTS while the account has spent its failed-sign-in budget. */
  assertAccountMayTry(email: string): Promise<void> {
    return assertWithin(this.#failuresPerAccount, accountKey(email));
  }

  /**
   * Counts a failed authentication against the address and, for a sign-in, the account; throws
   * TOO_MANY_REQUESTS when either goes over its budget.
   */
  async recordFailure(from: { address?: string; account?: string }): Promise<void> {
    const counted = [
      from.address === undefined ? undefined : this.#failuresPerAddress?.consume(from.address),
      from.account === undefined
        ? undefined
        : this.#failuresPerAccount?.consume(accountKey(from.account)),
    ];
    await Promise.all(counted).catch(refusedAsTooManyRequests);
  }

  /** Counts one call with an application key; throws TOO_MANY_REQUESTS over the budget. */
  async recordCall(applicationId: string): Promise<void> {
    await this.#calls?.consume(applicationId).catch(refusedAsTooManyRequests);
  }
}
