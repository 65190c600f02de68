import type { Logger, RequestContext } from '@checkline/core';
import type { Database } from '@checkline/db';
import type { InboxHub } from './inbox/hub.ts';
import { DEFAULT_UNSUBSCRIBE_LINK_DAYS } from './preferences/unsubscribe.ts';
import { Keyring } from './strategies/keyring.ts';
import type { DeliverySettings, ResolvedDeliverySettings } from './delivery/settings.ts';
import { resolveDeliverySettings } from './delivery/settings.ts';
import type { DeliveryWorker } from './delivery/worker.ts';
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
  /**
   * Encrypts the secret fields of stored configs (the server builds it from `ENCRYPTION_KEY` and
   * `ENCRYPTION_KEYS_OLD`). Default: a random key that lives as long as the process (tests).
   */
  keyring?: Keyring;
  /** The delivery queue's worker in this process (tick, batch, concurrency, lease, retries). */
  delivery?: DeliverySettings;
  /**
   * Public address of the API (`BASE_URL`): links in messages that come back to us (unsubscribe,
   * OAuth returns) start with it. Default `http://localhost:3000`.
   */
  baseUrl?: string;
  /**
   * Public address of the web UI (`FRONTEND_URL`): action paths such as `/incidents/1` are made
   * absolute against it before a strategy sends them. Default: `baseUrl`.
   */
  frontendUrl?: string;
  /** Days an unsubscribe link of a non-transactional message works. Default 60. */
  unsubscribeLinkDays?: number;
}

const withoutTrailingSlash = (url: string) => new URL(url).toString().replace(/\/+$/, '');

/**
 * What one notification plugin instance shares between its handlers, workers and extension
 * point: the registry, and the database and logger once initialised. Each concept folder adds
 * the parts it owns.
 */
export class NotificationState {
  readonly strategies: NotificationStrategyRegistry;
  /** Open inbox streams; set once the plugin is ready. */
  inboxHub: InboxHub | undefined;
  readonly keyring: Keyring;
  readonly deliverySettings: ResolvedDeliverySettings;
  /** `BASE_URL` without a trailing slash. */
  readonly baseUrl: string;
  /** `FRONTEND_URL` without a trailing slash. */
  readonly frontendUrl: string;
  /** How long an unsubscribe link works, in milliseconds. */
  readonly unsubscribeLinkMs: number;
  /** This process's delivery worker, from `ready` until `stop`. */
  deliveryWorker: DeliveryWorker | undefined;
  #serviceContext: (() => RequestContext) | undefined;
  #db: Database | undefined;
  #logger: Logger | undefined;

  constructor(readonly options: NotificationOptions = {}) {
    this.strategies = options.strategies ?? new NotificationStrategyRegistry();
    this.keyring = options.keyring ?? Keyring.ephemeral();
    this.deliverySettings = resolveDeliverySettings(options.delivery);
    this.baseUrl = withoutTrailingSlash(options.baseUrl ?? 'http://localhost:3000');
    this.frontendUrl = withoutTrailingSlash(options.frontendUrl ?? this.baseUrl);
    const linkDays = options.unsubscribeLinkDays ?? DEFAULT_UNSUBSCRIBE_LINK_DAYS;
    if (!(Number.isFinite(linkDays) && linkDays > 0)) {
      throw new Error('unsubscribeLinkDays must be a positive number');
    }
    this.unsubscribeLinkMs = linkDays * 24 * 60 * 60_000;
  }

  attach(db: Database, logger: Logger, serviceContext?: () => RequestContext) {
    this.#db = db;
    this.#logger = logger;
    this.#serviceContext = serviceContext;
  }

  /** A context for background work: the service principal on the root database. */
  serviceContext(): RequestContext {
    if (!this.#serviceContext) throw new Error('The notification plugin has not been initialised');
    return this.#serviceContext();
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
