/** What a database handle's connections are doing, for `GET /metrics`. */
export interface PoolStats {
  /** Connections the pool may hold (1 for PGlite, whose single session serialises everything). */
  size: number;
  /** Statements and transactions started and not yet settled; past `size` they wait. */
  inFlight: number;
  /** Transactions that have begun, and the seconds they waited for it in all. */
  acquires: number;
  acquireSeconds: number;
}

/**
 * Counts what goes through a client's entry points (statements, transactions). A statement sent
 * while every connection is busy waits behind others; the time a transaction waits for its
 * connection is measured from the call to its callback.
 */
export function createPoolTracker(size: number) {
  const stats: PoolStats = { size, inFlight: 0, acquires: 0, acquireSeconds: 0 };
  const settle = () => {
    stats.inFlight -= 1;
  };
  return {
    stats: (): PoolStats => ({ ...stats }),
    /** Counts `result` in flight until it settles; `result` is returned as it is. */
    statement<T extends PromiseLike<unknown>>(result: T): T {
      stats.inFlight += 1;
      result.then(settle, settle);
      return result;
    },
    /** Wraps a transaction's callback: the wait until it runs is the acquire time. */
    async transaction(
      begin: (run: (inner: () => unknown) => unknown) => Promise<unknown>,
    ): Promise<unknown> {
      stats.inFlight += 1;
      const asked = performance.now();
      try {
        return await begin((inner) => {
          stats.acquires += 1;
          stats.acquireSeconds += (performance.now() - asked) / 1_000;
          return inner();
        });
      } finally {
        settle();
      }
    },
  };
}
