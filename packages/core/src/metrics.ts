import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from './logger.ts';

/** Latency buckets in seconds, from a cache hit to a slow target. */
const secondsBuckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Reads what is cheaper to ask at scrape time than to track (queue depths): one query each. */
export type ScrapeReader = () => Promise<void> | void;

export interface MetricsOptions {
  /** Node's own figures (memory, event-loop lag, GC, handles). Default true. */
  processMetrics?: boolean;
}

/**
 * Every metric family of one server process, on a registry of its own (two test servers in one
 * process never share counts). Plugins record into the instruments they are handed; queue depths
 * are read by `readOnScrape` callbacks, never on a request's path. Names are documented in
 * docs/operations.md and read by docs/grafana/checkline.json.
 */
export function createMetrics(options: MetricsOptions = {}) {
  const registry = new Registry();
  const registers = [registry];
  const readers = new Map<string, ScrapeReader>();
  let logger: Logger | undefined;
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const readFailures = new Counter({
    name: 'checkline_metrics_read_failures_total',
    help: 'Scrape-time readings (queue depths) that failed; their gauges keep the last value.',
    labelNames: ['reader'],
    registers,
  });

  const instruments = {
    requests: new Counter({
      name: 'checkline_http_requests_total',
      help: 'HTTP requests answered, by surface (keyed, rpc, rest, route, other), plugin, procedure and status.',
      labelNames: ['surface', 'plugin', 'procedure', 'status'],
      registers,
    }),
    requestDuration: new Histogram({
      name: 'checkline_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by surface, plugin, procedure and status.',
      labelNames: ['surface', 'plugin', 'procedure', 'status'],
      buckets: secondsBuckets,
      registers,
    }),
    checkRuns: new Counter({
      name: 'checkline_check_runs_total',
      help: 'Health-check runs this process finished, by check type and outcome (pass, warn, fail).',
      labelNames: ['type', 'outcome'],
      registers,
    }),
    checkLateStarts: new Counter({
      name: 'checkline_check_late_starts_total',
      help: "Scheduled health-check runs this process gave back unstarted, their lease margin spent waiting (for their host's or owner's turn, or a connection slot), by check type.",
      labelNames: ['type'],
      registers,
    }),
    checkLag: new Histogram({
      name: 'checkline_check_lag_seconds',
      help: 'How late a scheduled health-check run started after it was due.',
      buckets: secondsBuckets,
      registers,
    }),
    checkBacklog: new Gauge({
      name: 'checkline_check_backlog',
      help: 'Health-check runs due now that no process holds (read at scrape time, all processes).',
      registers,
    }),
    checkBacklogAge: new Gauge({
      name: 'checkline_check_backlog_oldest_seconds',
      help: 'How long the oldest unclaimed due health-check run has been due (0 without backlog).',
      registers,
    }),
    deliveryAttempts: new Counter({
      name: 'checkline_delivery_attempts_total',
      help: 'Channel delivery attempts recorded by this process, by strategy and outcome (sent, pending = retry, failed, skipped).',
      labelNames: ['strategy', 'outcome'],
      registers,
    }),
    deliveryQueue: new Gauge({
      name: 'checkline_delivery_queue_depth',
      help: 'Deliveries waiting to be sent or retried, by strategy (read at scrape time, all processes).',
      labelNames: ['strategy'],
      registers,
    }),
    outboxDepth: new Gauge({
      name: 'checkline_event_outbox_depth',
      help: 'Domain events written and not yet dispatched to every subscriber (read at scrape time).',
      registers,
    }),
    outboxAge: new Gauge({
      name: 'checkline_event_outbox_oldest_seconds',
      help: 'Age of the oldest undispatched domain event (0 when none wait).',
      registers,
    }),
    dbPoolSize: new Gauge({
      name: 'checkline_db_pool_size',
      help: 'Database connections this process may hold at most (DATABASE_POOL_SIZE; 1 for PGlite).',
      registers,
    }),
    dbPoolInUse: new Gauge({
      name: 'checkline_db_pool_in_use',
      help: 'Statements and transactions holding a connection now.',
      registers,
    }),
    dbPoolWaiting: new Gauge({
      name: 'checkline_db_pool_waiting',
      help: 'Statements and transactions in flight beyond the pool size: waiting behind others.',
      registers,
    }),
    dbPoolAcquireSeconds: new Counter({
      name: 'checkline_db_pool_acquire_seconds_total',
      help: 'Total time transactions waited for their connection (and BEGIN), in seconds.',
      registers,
    }),
    dbPoolAcquires: new Counter({
      name: 'checkline_db_pool_acquires_total',
      help: 'Transactions that acquired a connection.',
      registers,
    }),
    cacheLookups: new Counter({
      name: 'checkline_cache_lookups_total',
      help: 'Lookups in the credential caches (keys, sessions), by result (hit, miss).',
      labelNames: ['cache', 'result'],
      registers,
    }),
    cacheInvalidations: new Counter({
      name: 'checkline_cache_invalidations_total',
      help: 'Cache invalidations applied, by kind (application, user, grants, everything) and source (local, announced, connection-lost).',
      labelNames: ['kind', 'source'],
      registers,
    }),
  };

  return {
    ...instruments,
    /** Where the scrape's failures are logged (the server's logger once it exists). */
    useLogger(next: Logger) {
      logger = next;
    },
    /**
     * Runs `read` before each scrape (it sets gauges); a second reader of the same name replaces
     * the first. A failing reader is counted and logged, and the scrape goes on.
     */
    readOnScrape(name: string, read: ScrapeReader) {
      readers.set(name, read);
    },
    /** The Prometheus text exposition, after every reader has run. */
    async scrape(): Promise<string> {
      await Promise.all(
        [...readers].map(async ([name, read]) => {
          try {
            await read();
          } catch (error) {
            readFailures.inc({ reader: name });
            logger?.warn({ err: error, reader: name }, 'metrics reading failed');
          }
        }),
      );
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
