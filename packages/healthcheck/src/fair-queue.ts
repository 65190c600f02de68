/** A limit an item counts against while it waits and while it runs (`host:db.example`). */
export interface FairKey {
  key: string;
  /** Items of this key running at once, at most; as many may wait. */
  cap: number;
}

export interface FairQueue<T> {
  /**
   * Queues `item` under `keys` (the first is its lane, taken in turn with the other lanes) and
   * starts what may start. False, and nothing queued, when a key already has `cap` items waiting.
   */
  offer(item: T, keys: readonly FairKey[]): boolean;
  /** Items started and not yet finished. */
  readonly running: number;
  /** Items queued and not yet started. */
  readonly waiting: number;
}

interface Entry<T> {
  item: T;
  keys: readonly FairKey[];
}

/**
 * Runs items at most `concurrency` at a time and at most each key's `cap` per key, taking lanes
 * in turn (the one served longest ago first): a lane with many items waiting delays another
 * lane's item by one turn, not by its whole backlog. `lastServed` holds one number per lane
 * ever seen (the owners of checks: few).
 */
export function createFairQueue<T>(options: {
  concurrency: number;
  run: (item: T) => Promise<void>;
}): FairQueue<T> {
  const lanes = new Map<string, Entry<T>[]>();
  // When each lane last had an item started; kept after a lane empties, so coming back with
  // one item at a time does not jump the queue.
  const lastServed = new Map<string, number>();
  let served = 0;
  const runningByKey = new Map<string, number>();
  const waitingByKey = new Map<string, number>();
  let running = 0;
  let waiting = 0;

  const add = (counts: Map<string, number>, keys: readonly FairKey[], delta: number) => {
    for (const { key } of keys) {
      const count = (counts.get(key) ?? 0) + delta;
      if (count === 0) counts.delete(key);
      else counts.set(key, count);
    }
  };
  const startable = (entry: Entry<T>) =>
    entry.keys.every(({ key, cap }) => (runningByKey.get(key) ?? 0) < cap);

  function start(entry: Entry<T>) {
    running += 1;
    waiting -= 1;
    add(waitingByKey, entry.keys, -1);
    add(runningByKey, entry.keys, 1);
    void options
      .run(entry.item)
      .catch(() => {})
      .finally(() => {
        running -= 1;
        add(runningByKey, entry.keys, -1);
        pump();
      });
  }

  /**
   * One item that may start, from the lane served longest ago (a lane never served first); false
   * when none may start.
   */
  function startOne(): boolean {
    let chosen: { lane: string; entries: Entry<T>[]; at: number } | undefined;
    for (const [lane, entries] of lanes) {
      const servedAt = lastServed.get(lane) ?? -1;
      if (chosen && servedAt >= (lastServed.get(chosen.lane) ?? -1)) continue;
      const at = entries.findIndex(startable);
      if (at >= 0) chosen = { lane, entries, at };
    }
    if (!chosen) return false;
    const [entry] = chosen.entries.splice(chosen.at, 1);
    if (chosen.entries.length === 0) lanes.delete(chosen.lane);
    lastServed.set(chosen.lane, served++);
    start(entry!);
    return true;
  }

  function pump() {
    while (running < options.concurrency && startOne());
  }

  return {
    offer(item, keys) {
      if (keys.some(({ key, cap }) => (waitingByKey.get(key) ?? 0) >= cap)) return false;
      const lane = keys[0]?.key ?? '';
      const entries = lanes.get(lane);
      if (entries) entries.push({ item, keys });
      else lanes.set(lane, [{ item, keys }]);
      waiting += 1;
      add(waitingByKey, keys, 1);
      pump();
      return true;
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting;
    },
  };
}
