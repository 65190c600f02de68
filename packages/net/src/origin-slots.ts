/**
 * A limit of `perOrigin` holders at once for each origin, waited for in arrival order. A check
 * holds its origin's slot while it talks to the target, and the agent keeps as many connections
 * per origin as there are slots, so a request never queues inside the connection pool: the time
 * a run waits is spent here, where it can be measured and kept out of the target's timeout.
 */
export function createOriginSlots(perOrigin: number) {
  const held = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();

  function release(origin: string) {
    const queue = waiting.get(origin);
    const next = queue?.shift();
    if (queue?.length === 0) waiting.delete(origin);
    // The slot passes straight to the next waiter; the count stays.
    if (next) return next();
    const count = (held.get(origin) ?? 1) - 1;
    if (count === 0) held.delete(origin);
    else held.set(origin, count);
  }

  const holding = (origin: string) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release(origin);
    };
  };

  return {
    perOrigin,
    /** Resolves with the slot's release once `origin` has a free slot; rejects when `signal` aborts. */
    acquire(origin: string, signal: AbortSignal): Promise<() => void> {
      signal.throwIfAborted();
      const count = held.get(origin) ?? 0;
      if (count < perOrigin) {
        held.set(origin, count + 1);
        return Promise.resolve(holding(origin));
      }
      return new Promise((resolve, reject) => {
        const queue = waiting.get(origin) ?? [];
        waiting.set(origin, queue);
        const granted = () => {
          signal.removeEventListener('abort', onAbort);
          resolve(holding(origin));
        };
        const onAbort = () => {
          const current = waiting.get(origin) ?? [];
          const at = current.indexOf(granted);
          if (at >= 0) current.splice(at, 1);
          if (current.length === 0) waiting.delete(origin);
          reject(signal.reason);
        };
        queue.push(granted);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    /** Runs holding or waiting for a slot of `origin`: how busy it is. */
    load(origin: string) {
      return { held: held.get(origin) ?? 0, waiting: waiting.get(origin)?.length ?? 0 };
    },
  };
}
