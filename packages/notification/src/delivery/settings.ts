/** How the delivery queue of one server process works; every field has a default. */
export interface DeliverySettings {
  /** Start the worker in `ready`. Default true; false leaves `tick()`/`drain()` to the caller (tests). */
  autoStart?: boolean;
  /** Milliseconds between looks for due deliveries when nothing wakes the worker. Default 1 000. */
  tickIntervalMs?: number;
  /** At most this many deliveries claimed by one look. Default 100. */
  batchSize?: number;
  /** Sends this process keeps in flight at once. Default 100. */
  concurrency?: number;
  /**
   * How long a claim holds a delivery; a claim not finished by then (its process died) is taken
   * over by any worker. Keep it above `sendTimeoutMs`. Default 60 000.
   */
  leaseMs?: number;
  /** A `send` still running after this long counts as a failed attempt. Default 30 000. */
  sendTimeoutMs?: number;
  /** Attempts before a delivery is `failed` for good. Default 6: the first and five retries. */
  maxAttempts?: number;
  /**
   * The wait before each retry, in order (the last repeats); each is shortened by up to a
   * quarter at random, so retries of many deliveries spread out. Default 30 s, 2 min, 10 min,
   * 1 h, 6 h: a receiver down for most of a working day still gets the message.
   */
  retryDelaysMs?: readonly number[];
  /**
   * A channel keeps failing after this many send attempts through it failed in a row, across
   * all its deliveries, with no success between: the administrators are told once, through the
   * other channels and the inbox, and again only after it has recovered. Default 5.
   */
  channelFailuresBeforeReport?: number;
}

export type ResolvedDeliverySettings = Required<DeliverySettings>;

const deliveryDefaults: ResolvedDeliverySettings = {
  autoStart: true,
  tickIntervalMs: 1_000,
  batchSize: 100,
  concurrency: 100,
  leaseMs: 60_000,
  sendTimeoutMs: 30_000,
  maxAttempts: 6,
  retryDelaysMs: [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000],
  channelFailuresBeforeReport: 5,
};

export function resolveDeliverySettings(settings: DeliverySettings = {}): ResolvedDeliverySettings {
  const resolved = { ...deliveryDefaults, ...settings };
  const positive = (value: number) => Number.isFinite(value) && value > 0;
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value === 'number' && !positive(value)) {
      throw new Error(`notification delivery setting ${name} must be a positive number`);
    }
  }
  if (resolved.retryDelaysMs.length === 0 || !resolved.retryDelaysMs.every(positive)) {
    throw new Error('notification delivery setting retryDelaysMs must list positive numbers');
  }
  return resolved;
}

/**
 * The wait before the retry after `attempt` failed attempts: its step of `retryDelaysMs` (the
 * last step repeats), less up to a quarter of it at random.
 */
export function backoffDelayMs(
  attempt: number,
  settings: Pick<ResolvedDeliverySettings, 'retryDelaysMs'>,
  random: () => number = Math.random,
): number {
  const steps = settings.retryDelaysMs;
  const step = steps[Math.min(Math.max(attempt, 1), steps.length) - 1]!;
  return Math.round(step * (1 - random() / 4));
}
