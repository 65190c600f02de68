import type { Logger } from './logger.ts';

/** A kind of domain event and the shape of its payload. */
export interface EventType<T> {
  readonly name: string;
  /** Type carrier only; never set. */
  readonly T?: T;
}

export function defineEvent<T>(name: string): EventType<T> {
  if (!/^[a-z][a-z0-9-]*\.[a-z][a-z0-9_]*$/.test(name)) {
    throw new Error(`Event names are {pluginId}.{event_name}; got "${name}"`);
  }
  return { name };
}

export type EventHandler<T> = (payload: T) => void | Promise<void>;

/**
 * In-process publish/subscribe for domain events. Subscribers run after the publisher's call
 * returns, each on its own; one failing is logged and does not affect the others.
 */
export class EventBus {
  readonly #handlers = new Map<string, EventHandler<unknown>[]>();
  #pending = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  subscribe<T>(type: EventType<T>, handler: EventHandler<T>): () => void {
    const list = this.#handlers.get(type.name) ?? [];
    list.push(handler as EventHandler<unknown>);
    this.#handlers.set(type.name, list);
    return () => {
      const index = list.indexOf(handler as EventHandler<unknown>);
      if (index >= 0) list.splice(index, 1);
    };
  }

  publish<T>(type: EventType<T>, payload: T): void {
    for (const handler of this.#handlers.get(type.name) ?? []) {
      const run = Promise.resolve()
        .then(() => handler(payload))
        .catch((error: unknown) =>
          this.logger.error({ err: error, event: type.name }, 'event subscriber failed'),
        )
        .finally(() => this.#pending.delete(run));
      this.#pending.add(run);
    }
  }

  /** Resolves once every subscriber started so far has finished (for shutdown and tests). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }
}
