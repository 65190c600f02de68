import type { Egress } from '@checkline/net';
import { createEgress } from '@checkline/net';
import type { Logger, Metrics, RateLimit, RequestContext } from '@checkline/core';
import type { Database } from '@checkline/db';
import type { InboxHub } from './inbox/hub.ts';
import type { InboxStreamLimits } from './inbox/stream-limits.ts';
import { DEFAULT_UNSUBSCRIBE_LINK_DAYS } from './preferences/unsubscribe.ts';
import { Keyring } from '@checkline/core';
import type { DeliverySettings, ResolvedDeliverySettings } from './delivery/settings.ts';
import { resolveDeliverySettings } from './delivery/settings.ts';
import type { DeliveryWorker } from './delivery/worker.ts';
import type { ReminderSettings, ResolvedReminderSettings } from './reminders/settings.ts';
import { resolveReminderSettings } from './reminders/settings.ts';
import { NotificationStrategyRegistry } from './strategies/registry.ts';
import { NotificationSources } from './subscriptions/source-registry.ts';
import type { SendQuota } from './send-quota.ts';
import { defaultSendQuota, sendQuota } from './send-quota.ts';

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
   * Notifications one caller may store per hour (one per recipient) through notifyUsers,
   * sendExternal and sendTransactional; `false` turns it off. Default 50 000 an hour.
   */
  sendQuota?: RateLimit | false;
  /** Open inbox streams per user and per process. Default 20 and 10 000. */
  inboxStreams?: Partial<InboxStreamLimits>;
  /**
   * Encrypts the secret fields of stored configs (the server builds it from `ENCRYPTION_KEY` and
   * `ENCRYPTION_KEYS_OLD`). Default: a random key that lives as long as the process (tests).
   */
  keyring?: Keyring;
  /** The delivery queue's worker in this process (tick, batch, concurrency, lease, retries). */
  delivery?: DeliverySettings;
  /** Alert reminders and escalations: the worker's poll, the smallest interval, link lifetime. */
  reminders?: ReminderSettings;
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
  /**
   * The guard OAuth token and revocation calls go through (the server hands in its one guard).
   * Default: private addresses refused (`createEgress()`).
   */
  egress?: Pick<Egress, 'fetch'>;
}

const withoutTrailingSlash = (url: string) => new URL(url).toString().replace(/\/+$/, '');

/**
 * What one notification plugin instance shares between its handlers, workers and extension
 * point: the registry, and the database and logger once initialised. Each concept folder adds
 * the parts it owns.
 */
export class NotificationState {
  readonly strategies: NotificationStrategyRegistry;
  /** The monitoring events subscriptions hear, registered through the sources extension point. */
  readonly sources = new NotificationSources();
  /** Open inbox streams; set once the plugin is ready. */
  inboxHub: InboxHub | undefined;
  readonly keyring: Keyring;
  /** Where calls to OAuth providers go out. */
  readonly egress: Pick<Egress, 'fetch'>;
  readonly deliverySettings: ResolvedDeliverySettings;
  readonly reminderSettings: ResolvedReminderSettings;
  /** `BASE_URL` without a trailing slash. */
  readonly baseUrl: string;
  /** `FRONTEND_URL` without a trailing slash. */
  readonly frontendUrl: string;
  /** How long an unsubscribe link works, in milliseconds. */
  readonly unsubscribeLinkMs: number;
  /** Refuses a caller's send past its hourly quota. */
  readonly assertWithinSendQuota: SendQuota;
  readonly #sendQuota: ReturnType<typeof sendQuota>;
  /** This process's delivery worker, from `ready` until `stop`. */
  deliveryWorker: DeliveryWorker | undefined;
  #serviceContext: (() => RequestContext) | undefined;
  #db: Database | undefined;
  #logger: Logger | undefined;
  /** Where delivery attempts are counted (`GET /metrics`), once initialised. */
  metrics: Pick<Metrics, 'deliveryAttempts'> | undefined;

  constructor(readonly options: NotificationOptions = {}) {
    this.strategies = options.strategies ?? new NotificationStrategyRegistry();
    this.keyring = options.keyring ?? Keyring.ephemeral();
    this.egress = options.egress ?? createEgress();
    this.deliverySettings = resolveDeliverySettings(options.delivery);
    this.reminderSettings = resolveReminderSettings(options.reminders);
    this.#sendQuota = sendQuota(options.sendQuota ?? defaultSendQuota);
    this.assertWithinSendQuota = this.#sendQuota.assertWithinSendQuota;
    this.baseUrl = withoutTrailingSlash(options.baseUrl ?? 'http://localhost:3000');
    this.frontendUrl = withoutTrailingSlash(options.frontendUrl ?? this.baseUrl);
    const linkDays = options.unsubscribeLinkDays ?? DEFAULT_UNSUBSCRIBE_LINK_DAYS;
    if (!(Number.isFinite(linkDays) && linkDays > 0)) {
      throw new Error('unsubscribeLinkDays must be a positive number');
    }
    this.unsubscribeLinkMs = linkDays * 24 * 60 * 60_000;
  }

  attach(
    db: Database,
    logger: Logger,
    serviceContext?: () => RequestContext,
    databaseKind?: 'postgres' | 'pglite',
  ) {
    // Several processes share one PostgreSQL database, and so the quota; PGlite is one process.
    if (databaseKind === 'postgres') this.#sendQuota.share();
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
