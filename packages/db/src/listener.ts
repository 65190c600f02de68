import postgres from 'postgres';
import type { DatabaseListen } from './database.ts';
import type { PostgresSettings } from './create-database.ts';

/** Wait before the next attempt to listen again: 100 ms doubling, at most two seconds. */
const relistenDelayMs = (attempt: number) => Math.min(100 * 2 ** attempt, 2_000);

interface Subscriber {
  onPayload: (payload: string) => void;
  onReset: (() => void) | undefined;
}

const quoted = (channel: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  return `"${channel}"`;
};

/**
 * LISTEN on a connection of its own. When that connection is lost every subscriber's `onReset`
 * runs at once (what was said meanwhile is not heard), the channels are listened to again with a
 * bounded back-off until it works, and `onReset` runs once more when they are (notifications sent
 * between the loss and the new LISTEN are lost for good). postgres-js's own `listen` tries again
 * only once and then goes deaf for good, which is why this one exists.
 */
export class ReconnectingListener {
  readonly #sql: postgres.Sql;
  readonly #channels = new Map<string, Set<Subscriber>>();
  #stopped = false;
  #relistening = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(url: string, settings: PostgresSettings = {}) {
    // postgres-js hands every notification to this option, which its types do not declare.
    const notifications = {
      onnotify: (channel: string, payload: string) => {
        for (const subscriber of this.#channels.get(channel) ?? []) subscriber.onPayload(payload);
      },
    };
    this.#sql = postgres(url, {
      ...notifications,
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      fetch_types: false,
      onnotice: () => {},
      connect_timeout: (settings.connectTimeoutMs ?? 5_000) / 1_000,
      onclose: () => this.#lost(),
    });
  }

  readonly listen: DatabaseListen = async (channel, onPayload, onReset) => {
    const subscriber: Subscriber = { onPayload, onReset };
    let subscribers = this.#channels.get(channel);
    if (!subscribers) {
      this.#channels.set(channel, (subscribers = new Set()));
      try {
        await this.#sql.unsafe(`listen ${quoted(channel)}`);
      } catch (error) {
        this.#channels.delete(channel);
        throw error;
      }
    }
    subscribers.add(subscriber);
    return async () => {
      const current = this.#channels.get(channel);
      if (!current?.delete(subscriber) || current.size > 0) return;
      this.#channels.delete(channel);
      if (!this.#stopped) await this.#sql.unsafe(`unlisten ${quoted(channel)}`).catch(() => {});
    };
  };

  async close(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#sql.end({ timeout: 0 });
  }

  #reset(): void {
    for (const subscribers of this.#channels.values()) {
      for (const subscriber of subscribers) subscriber.onReset?.();
    }
  }

  #lost(): void {
    if (this.#stopped || this.#channels.size === 0) return;
    this.#reset();
    if (this.#relistening) return;
    this.#relistening = true;
    void this.#relisten().finally(() => (this.#relistening = false));
  }

  async #relisten(): Promise<void> {
    for (let attempt = 0; !this.#stopped; attempt++) {
      try {
        for (const channel of this.#channels.keys()) {
          await this.#sql.unsafe(`listen ${quoted(channel)}`);
        }
        if (!this.#stopped) this.#reset();
        return;
      } catch {
        await new Promise<void>((resolve) => {
          this.#timer = setTimeout(resolve, relistenDelayMs(attempt));
        });
      }
    }
  }
}
