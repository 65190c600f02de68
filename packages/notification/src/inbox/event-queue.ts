/**
 * Events waiting for one stream. Bounded: a client that stops reading while events pile up is
 * closed (it reconnects and reads the inbox afresh) rather than holding memory without limit.
 * `supersedes(next, last)` answers whether a new item makes the last waiting one useless (a newer
 * unread count): it then takes that one's place, so a burst of such items waits as one.
 */
export class EventQueue<T> {
  #items: T[] = [];
  #waiting: ((item: T | undefined) => void) | undefined;
  #closed = false;

  constructor(
    private readonly capacity = 1_000,
    private readonly supersedes?: (next: T, last: T) => boolean,
  ) {}

  get closed() {
    return this.#closed;
  }

  push(item: T) {
    if (this.#closed) return;
    if (this.#waiting) {
      const wake = this.#waiting;
      this.#waiting = undefined;
      wake(item);
      return;
    }
    const last = this.#items.length - 1;
    if (last >= 0 && this.supersedes?.(item, this.#items[last]!)) {
      this.#items[last] = item;
      return;
    }
    if (this.#items.length >= this.capacity) {
      this.close();
      return;
    }
    this.#items.push(item);
  }

  close() {
    this.#closed = true;
    this.#items = [];
    const wake = this.#waiting;
    this.#waiting = undefined;
    wake?.(undefined);
  }

  /** The next event, or undefined once the queue is closed or `signal` aborts. */
  async take(signal?: AbortSignal): Promise<T | undefined> {
    if (this.#items.length > 0) return this.#items.shift();
    if (this.#closed || signal?.aborted) return undefined;
    return new Promise((resolve) => {
      const onAbort = () => {
        this.#waiting = undefined;
        resolve(undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting = (item) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(item);
      };
    });
  }
}
