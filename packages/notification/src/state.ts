import type { Logger } from '@checkline/core';
import type { Database } from '@checkline/db';
import type { InboxHub } from './inbox/hub.ts';
import { NotificationStrategyRegistry } from './strategies/registry.ts';

/** Settings of the notification plugin; every one has a default. */
export interface NotificationOptions {
  /** Strategies registered into this plugin instance (tests pass their own). */
  strategies?: NotificationStrategyRegistry;
  /** In-app notifications older than this many days are purged. Default 90. */
  inboxRetentionDays?: number;
  /** How often the inbox purge runs, in milliseconds. Default one hour. */
  inboxPurgeIntervalMs?: number;
  /** Rows deleted per purge statement (each its own short transaction). Default 5 000. */
  inboxPurgeChunkSize?: number;
}

/**
 * What one notification plugin instance shares between its handlers, workers and extension
 * point: the registry, and the database and logger once initialised. Each concept folder adds
 * the parts it owns.
 */
export class NotificationState {
  readonly strategies: NotificationStrategyRegistry;
  /** Open inbox streams; set once the plugin is ready. */
  inboxHub: InboxHub | undefined;
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
