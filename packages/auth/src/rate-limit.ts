import { isIP } from 'node:net';
import type { RateLimit } from '@checkline/core';
import type { Budget } from '@checkline/core';
import {
  budgetFor,
  memoryRateLimiter,
  refusedAsTooManyRequests,
  sharedRateLimiter,
} from '@checkline/core';
import { tooManyRequests } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ResolvedAuthConfig } from './config.ts';
import { sha256Hex } from './sha256.ts';

type Limiter = RateLimiterAbstract;

/** The header the server stamps with the socket's address; a client-sent value never survives. */
const SOCKET_ADDRESS_HEADER = 'x-checkline-client-ip';

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
export const accountKey = (email: string) => email.trim().toLowerCase();

async function assertWithin(limiter: Limiter | undefined, key: string): Promise<void> {
  if (!limiter) return;
  const state = await limiter.get(key);
  if (state && state.consumedPoints >= limiter.points) throw tooManyRequests(state.msBeforeNext);
}

/** One try of an account's password: from where, and from a device known to that account. */
export interface PasswordAttempt {
  /** The e-mail tried, known account or not. */
  account: string;
  /** The client address, when the attempt came over the network as a sign-in. */
  address?: string;
  /** A device that signed in to this account before (its valid device cookie). */
  device?: { id: string };
}

/**
 * The authentication budgets: failed authentications per client address, and calls per key. Failed
 * passwords of an account count per device for a device known to it; from any other client, per
 * (account, address) and per account, so strangers can lock out strangers but not the owner's
 * own browser.
 */
export class RateLimits {
  #failuresPerAddress: Limiter | undefined;
  #failuresPerAccount: Limiter | undefined;
  #failuresPerAccountAddress: Limiter | undefined;
  #failuresPerDevice: Limiter | undefined;
  readonly #calls: Budget;

  constructor(private readonly config: ResolvedAuthConfig['rateLimits']) {
    this.#failuresPerAddress = memoryRateLimiter(config.failedAuthPerIp, 'address');
    this.#failuresPerAccount = memoryRateLimiter(config.failedLoginsPerAccount, 'account');
    this.#failuresPerAccountAddress = memoryRateLimiter(
      config.failedLoginsPerAccountAndAddress,
      'account-address',
    );
    this.#failuresPerDevice = memoryRateLimiter(config.failedLoginsPerDevice, 'device');
    this.#calls = budgetFor(config.callsPerKey, 'auth-key');
  }

  /**
   * From now on the budgets are counted in `db`, by every process on it together (so N processes
   * do not give an attacker N budgets). Failed authentications are counted as they come, under
   * hashed keys (the table holds no address or e-mail); calls per key are leased in chunks, so a
   * valid key's call is counted in memory (`LeasedBudget`).
   */
  shareIn(db: Database): void {
    this.#calls.shareIn(db);
    const shared = (limit: RateLimit | false, prefix: string) =>
      sharedRateLimiter(limit, `auth-${prefix}`, db);
    this.#failuresPerAddress = shared(this.config.failedAuthPerIp, 'address');
    this.#failuresPerAccount = shared(this.config.failedLoginsPerAccount, 'account');
    this.#failuresPerAccountAddress = shared(
      this.config.failedLoginsPerAccountAndAddress,
      'account-address',
    );
    this.#failuresPerDevice = shared(this.config.failedLoginsPerDevice, 'device');
  }

  /** Throws TOO_MANY_REQUESTS while `ip` has spent its failed-authentication budget. */
  assertMayAuthenticate(ip: string): Promise<void> {
    return assertWithin(this.#failuresPerAddress, sha256Hex(ip));
  }

  /** Throws TOO_MANY_REQUESTS while the budgets this attempt counts against are spent. */
  async assertMayTryPassword(attempt: PasswordAttempt): Promise<void> {
    await Promise.all(
      this.#accountBudgets(attempt).map(([limiter, key]) => assertWithin(limiter, key)),
    );
  }

  /**
   * Counts a failed authentication against the address and, for a password, the budgets of the
   * account the attempt counts against; throws TOO_MANY_REQUESTS when one goes over its budget.
   */
  async recordFailure(from: { address?: string; password?: PasswordAttempt }): Promise<void> {
    const budgets = from.password ? this.#accountBudgets(from.password) : [];
    if (from.address !== undefined) {
      budgets.push([this.#failuresPerAddress, sha256Hex(from.address)]);
    }
    await Promise.all(
      budgets.flatMap(([limiter, key]) => (limiter ? [limiter.consume(key)] : [])),
    ).catch(refusedAsTooManyRequests);
  }

  /** Counts one call with an application key; throws TOO_MANY_REQUESTS over the budget. */
  async recordCall(applicationId: string): Promise<void> {
    await this.#calls.consume(applicationId);
  }

  #accountBudgets(attempt: PasswordAttempt): [Limiter | undefined, string][] {
    const account = accountKey(attempt.account);
    if (attempt.device) return [[this.#failuresPerDevice, sha256Hex(attempt.device.id)]];
    const budgets: [Limiter | undefined, string][] = [
      [this.#failuresPerAccount, sha256Hex(account)],
    ];
    if (attempt.address !== undefined) {
      budgets.push([this.#failuresPerAccountAddress, sha256Hex(`${account}\n${attempt.address}`)]);
    }
    return budgets;
  }
}
