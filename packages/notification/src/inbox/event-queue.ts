/**
 * Events waiting for one stream. Bounded: a client that stops reading while events pile up is
 * closed (it reconnects and reads the inbox afresh) rather than holding memory without limit.
 */
export class EventQueue<T> {
  #items: T[] = [];
  #waiting: ((item: T | undefined) => void) | undefined;
  #closed = false;

  constructor(private readonly capacity = 1_000) {}

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
