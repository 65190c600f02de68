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

/** What a subscriber learns besides the payload. */
export interface EventDelivery {
  /** The event's outbox id: the same on every redelivery, so subscribers can stay idempotent. */
  eventId: string;
}

/**
 * Runs for each event of its type, at least once: a throw makes the event (all its subscribers)
 * retried later, so a subscriber must tolerate seeing the same `eventId` again.
 */
export type EventHandler<T> = (payload: T, delivery: EventDelivery) => void | Promise<void>;
