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
  /** Attempts before a delivery is `failed` for good. Default 5. */
  maxAttempts?: number;
  /** First retry waits up to this long (full jitter), doubling per attempt. Default 1 000. */
  backoffBaseMs?: number;
  /** No retry waits longer than this. Default 5 minutes. */
  backoffCapMs?: number;
}

export type ResolvedDeliverySettings = Required<DeliverySettings>;

export const deliveryDefaults: ResolvedDeliverySettings = {
  autoStart: true,
  tickIntervalMs: 1_000,
  batchSize: 100,
  concurrency: 100,
  leaseMs: 60_000,
  sendTimeoutMs: 30_000,
  maxAttempts: 5,
  backoffBaseMs: 1_000,
  backoffCapMs: 5 * 60_000,
};

export function resolveDeliverySettings(settings: DeliverySettings = {}): ResolvedDeliverySettings {
  const resolved = { ...deliveryDefaults, ...settings };
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value === 'number' && !(Number.isFinite(value) && value > 0)) {
      throw new Error(`notification delivery setting ${name} must be a positive number`);
    }
  }
  return resolved;
}

/**
 * Exponential backoff with full jitter: the wait before the retry after `attempt` failed attempts
 * is uniform in [0, min(cap, base * 2^(attempt - 1))), so retries of many deliveries spread out.
 */
export function backoffDelayMs(
  attempt: number,
  settings: Pick<ResolvedDeliverySettings, 'backoffBaseMs' | 'backoffCapMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(settings.backoffCapMs, settings.backoffBaseMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}
