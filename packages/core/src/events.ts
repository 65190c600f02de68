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
