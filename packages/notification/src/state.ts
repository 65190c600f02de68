import type { Logger } from '@checkline/core';
import type { Database } from '@checkline/db';
import { NotificationStrategyRegistry } from './strategies/registry.ts';

/** Settings of the notification plugin; every one has a default. */
export interface NotificationOptions {
  /** Strategies registered into this plugin instance (tests pass their own). */
  strategies?: NotificationStrategyRegistry;
}

/**
 * What one notification plugin instance shares between its handlers, workers and extension
 * point: the registry, and the database and logger once initialised. Each concept folder adds
 * the parts it owns.
 */
export class NotificationState {
  readonly strategies: NotificationStrategyRegistry;
  #db: Database | undefined;
  #logger: Logger | undefined;

  constructor(readonly options: NotificationOptions = {}) {
    this.strategies = options.strategies ?? new NotificationStrategyRegistry();
  }

  attach(db: Database, logger: Logger) {
    this.#db = db;
    this.#logger = logger;
  }

  get db(): Database {
    if (!this.#db) throw new Error('The notification plugin has not been initialised');
    return this.#db;
  }

  get logger(): Logger {
    if (!this.#logger) throw new Error('The notification plugin has not been initialised');
    return this.#logger;
  }
}
