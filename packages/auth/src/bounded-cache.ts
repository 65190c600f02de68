interface Entry<V> {
  value: V;
  expiresAt: number;
  tag: string;
}

/**
 * An in-process cache with a size bound (the oldest entry goes first), a time limit per entry and
 * removal by tag (all entries of one application or user).
 */
export class BoundedCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #byTag = new Map<string, Set<string>>();

  constructor(
    readonly maxEntries: number,
    private readonly now: () => number = Date.now,
    /** Hears each `get`: whether it found a live entry (`GET /metrics` counts them). */
    private readonly onLookup?: (hit: boolean) => void,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const value = this.#live(key);
    this.onLookup?.(value !== undefined);
    return value;
  }

  #live(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` until `expiresAt` (epoch ms) at the latest. */
  set(key: string, value: V, expiresAt: number, tag: string): void {
    if (this.maxEntries <= 0 || expiresAt <= this.now()) return;
    this.delete(key);
    while (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
    this.#entries.set(key, { value, expiresAt, tag });
    let keys = this.#byTag.get(tag);
    if (!keys) this.#byTag.set(tag, (keys = new Set()));
    keys.add(key);
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    const keys = this.#byTag.get(entry.tag);
    keys?.delete(key);
    if (keys?.size === 0) this.#byTag.delete(entry.tag);
  }

  deleteTag(tag: string): void {
    for (const key of this.#byTag.get(tag) ?? []) this.#entries.delete(key);
    this.#byTag.delete(tag);
  }

  clear(): void {
    this.#entries.clear();
    this.#byTag.clear();
  }
}
