import type { Database } from '@checkline/db';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyRequests } from './errors.ts';
import type { RateLimit } from './rate-limit.ts';
import { memoryRateLimiter, sharedRateLimiter } from './rate-limit.ts';

/** What this process holds of one key's budget in the current window. */
interface Lease {
  /** Points taken from the store and not yet spent here. */
  held: number;
  /** When the store's window ends (epoch ms); the lease is void from then on. */
  endsAt: number;
  /** The store answered that the window's budget is gone: no further lease before `endsAt`. */
  spent: boolean;
  /** A lease being taken from the store, which callers of this key wait for. */
  taking?: Promise<void>;
}

/** Leases a process holds at most before it forgets ended windows. */
const SWEEP_AT = 10_000;

/**
 * A per-key budget (`limit.points` per window) that every process on the store counts against
 * together, without a round trip per call: a process leases points from the store in chunks and
 * spends them from memory, taking the next chunk in the background once half of one is spent. The
 * store's count never passes the budget by a point that was spent: a call is allowed only from
 * points leased within it, so N processes never allow more than the budget together. What they
 * hold unspent when a window ends is lost, so a key may be refused up to about 1.5 chunks per
 * process before the budget (under 5 % of it with 100-point chunks or a 1-point one).
 *
 * On a store in memory (one process) the chunk is one point: every call is counted as it comes.
 */
export class LeasedBudget {
  readonly #leases = new Map<string, Lease>();
  readonly #chunk: number;

  constructor(
    private readonly store: Pick<RateLimiterAbstract, 'penalty'>,
    readonly limit: RateLimit,
    chunk: number,
  ) {
    this.#chunk = Math.max(1, Math.min(Math.floor(chunk), limit.points));
  }

  /** Spends `points` of `key`'s budget; throws TOO_MANY_REQUESTS (with `retryAfter`) past it. */
  async consume(key: string, points = 1): Promise<void> {
    if (points > this.limit.points) throw tooManyRequests(this.limit.durationSeconds * 1_000);
    for (;;) {
      const lease = this.#current(key);
      if (lease.held >= points) {
        lease.held -= points;
        if (lease.held * 2 < this.#chunk && !lease.spent && !lease.taking) {
          // Ahead of need, so the calls after this one find points in memory.
          void this.#take(key, lease, this.#chunk).catch(() => {});
        }
        return;
      }
      if (lease.taking) {
        await lease.taking;
        continue;
      }
      if (lease.spent) throw tooManyRequests(lease.endsAt - Date.now());
      await this.#take(key, lease, Math.max(this.#chunk, points - lease.held));
    }
  }

  #current(key: string): Lease {
    const now = Date.now();
    const lease = this.#leases.get(key);
    if (lease && (lease.endsAt > now || lease.taking)) return lease;
    if (this.#leases.size >= SWEEP_AT) this.#forgetEnded(now);
    const fresh: Lease = { held: 0, endsAt: 0, spent: false };
    this.#leases.set(key, fresh);
    return fresh;
  }

  /** Leases `points` more from the store; those past the budget are not granted. */
  #take(key: string, lease: Lease, points: number): Promise<void> {
    const taking = (async () => {
      const answer = await this.store.penalty(key, points);
      const endsAt = Date.now() + Math.max(answer.msBeforeNext, 0);
      // A new window in the store voids what was held of the last one.
      if (answer.isFirstInDuration || endsAt > lease.endsAt + 1_000) {
        lease.held = 0;
        lease.spent = false;
      }
      const over = Math.max(0, answer.consumedPoints - this.limit.points);
      lease.held += Math.max(0, points - over);
      lease.endsAt = endsAt;
      if (answer.consumedPoints >= this.limit.points) lease.spent = true;
    })();
    lease.taking = taking;
    return taking.finally(() => {
      if (lease.taking === taking) lease.taking = undefined;
    });
  }

  #forgetEnded(now: number) {
    for (const [key, lease] of this.#leases) {
      if (lease.endsAt <= now && !lease.taking) this.#leases.delete(key);
    }
  }
}

/** Points a process leases at once: a hundredth of the budget, at least one. */
export const leaseChunk = (limit: RateLimit) => Math.max(1, Math.floor(limit.points / 100));

/**
 * A budget counted in this process (PGlite, or no database yet): every call is counted as it
 * comes. Undefined when the limit is turned off.
 */
export function memoryBudget(limit: RateLimit | false, keyPrefix: string) {
  const store = memoryRateLimiter(limit, keyPrefix);
  return store && limit ? new LeasedBudget(store, limit, 1) : undefined;
}

/**
 * A budget every process on the PostgreSQL database `db` counts against together, through the
 * `rate_limits` table, leased in chunks (`leaseChunk`). Undefined when the limit is turned off.
 */
export function sharedBudget(limit: RateLimit | false, keyPrefix: string, db: Database) {
  const store = sharedRateLimiter(limit, keyPrefix, db);
  return store && limit ? new LeasedBudget(store, limit, leaseChunk(limit)) : undefined;
}

/** Budgets that start in memory and move to the database once the plugin knows it. */
export function budgetFor(limit: RateLimit | false, keyPrefix: string) {
  let budget = memoryBudget(limit, keyPrefix);
  return {
    /** Counts from now on in `db`, shared with every process on it. */
    shareIn(db: Database) {
      budget = sharedBudget(limit, keyPrefix, db);
    },
    /** Spends `points` of `key`'s budget; throws TOO_MANY_REQUESTS past it. */
    consume: (key: string, points = 1) => budget?.consume(key, points) ?? Promise.resolve(),
  };
}

export type Budget = ReturnType<typeof budgetFor>;
