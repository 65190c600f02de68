import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const healthcheckSchema = pgSchema('healthcheck');

/** Millisecond precision, as JavaScript dates have: due times compare exactly and cursors page exactly. */
const instant = (name: string) =>
  timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

const timestamps = {
  createdAt: instant('created_at').notNull().defaultNow(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
};

export const healthChecks = healthcheckSchema.table(
  'health_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** A catalog system, by id only: plugins do not share foreign keys. */
    systemId: uuid('system_id').notNull(),
    name: text('name').notNull(),
    /** Qualified id of the check type, `{ownerPluginId}.{id}`. */
    type: text('type').notNull(),
    config: jsonb('config').$type<Record<string, unknown>>().notNull(),
    intervalSeconds: integer('interval_seconds').notNull(),
    timeoutMs: integer('timeout_ms').notNull(),
    /** The next due time not yet claimed by any scheduler. */
    nextRunAt: instant('next_run_at').notNull(),
    /** The due time of the run in progress; kept until its result is written, so a crash is retried. */
    claimedDueAt: instant('claimed_due_at'),
    /** When the claim of the run in progress lapses and another scheduler may take it over. */
    claimedUntil: instant('claimed_until'),
    /**
     * Who created the check (`{principalKind}:{principalId}`): the scheduler shares run slots
     * fairly between creators. Null for checks made before it was recorded.
     */
    createdBy: text('created_by'),
    /** Consecutive failed runs before the check counts as failing (see alert-state.ts). */
    failuresBeforeAlert: integer('failures_before_alert').notNull().default(1),
    /** Consecutive working runs before a failing check counts as working again. */
    recoveriesBeforeResolve: integer('recoveries_before_resolve').notNull().default(1),
    /** Seconds to the next run while a change waits for its threshold; null: the interval. */
    retryIntervalSeconds: integer('retry_interval_seconds'),
    /** The outcome the system's status counts: the last one that reached its threshold. */
    alertStatus: text('alert_status').$type<'pass' | 'warn' | 'fail'>(),
    /** The latest outcome and how many runs in a row had its side (failing or working). */
    streakStatus: text('streak_status').$type<'pass' | 'warn' | 'fail'>(),
    streakCount: integer('streak_count').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    unique('health_checks_system_name_unique').on(table.systemId, table.name),
    index('health_checks_next_run_at_idx').on(table.nextRunAt),
    index('health_checks_claimed_until_idx').on(table.claimedUntil),
  ],
);

export const results = healthcheckSchema.table(
  'results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    healthCheckId: uuid('health_check_id')
      .notNull()
      .references(() => healthChecks.id, { onDelete: 'cascade' }),
    status: text('status').$type<'pass' | 'warn' | 'fail'>().notNull(),
    latencyMs: integer('latency_ms').notNull(),
    message: text('message').notNull(),
    /** The scheduled due time this result answers; null for a run asked for by hand. */
    dueAt: instant('due_at'),
    checkedAt: instant('checked_at').notNull(),
    /** How late the run started: its start minus its due time; null for a run asked for by hand. */
    lagMs: integer('lag_ms'),
    /** The scheduler process that ran it (getSchedulerStatus groups by it); null by hand. */
    processId: text('process_id'),
    /**
     * Milliseconds the run waited for a connection slot to its target's origin before it was
     * sent: scheduler pressure, counted neither in `latencyMs` nor against the timeout.
     */
    queueWaitMs: integer('queue_wait_ms'),
    /** The outcome had not reached its threshold (failuresBeforeAlert, recoveriesBeforeResolve). */
    pending: boolean('pending').notNull().default(false),
  },
  (table) => [
    // Read backwards, it gives the newest results of a check first (latest result, history).
    index('results_check_time_idx').on(table.healthCheckId, table.checkedAt, table.id),
    index('results_checked_at_idx').on(table.checkedAt),
    // A due time is answered once, however many schedulers raced for it.
    uniqueIndex('results_check_due_unique').on(table.healthCheckId, table.dueAt),
  ],
);

/**
 * A claimed run given back because it could not start in time (late-start.ts): one row per late
 * start, kept as long as results. getSchedulerStatus counts them per process.
 */
export const lateStarts = healthcheckSchema.table(
  'late_starts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    healthCheckId: uuid('health_check_id')
      .notNull()
      .references(() => healthChecks.id, { onDelete: 'cascade' }),
    /** The due time of the run given back (it is retried with it). */
    dueAt: instant('due_at').notNull(),
    /** When it was given back. */
    at: instant('at').notNull(),
    /** The scheduler process that gave it back. */
    processId: text('process_id').notNull(),
    /** What it waited for: its host's or owner's turn in our queue, or a connection slot. */
    waitedFor: text('waited_for').$type<'turn' | 'connection slot'>().notNull(),
    /** Milliseconds it waited for a connection slot; null when it waited for its turn. */
    queueWaitMs: integer('queue_wait_ms'),
  },
  (table) => [
    index('late_starts_at_idx').on(table.at),
    index('late_starts_check_idx').on(table.healthCheckId),
  ],
);

/** The last status announced per system, so a change is announced exactly once. */
export const systemStatuses = healthcheckSchema.table('system_statuses', {
  systemId: uuid('system_id').primaryKey(),
  status: text('status')
    .$type<'healthy' | 'degraded' | 'unhealthy' | 'unknown' | 'maintenance'>()
    .notNull(),
  changedAt: instant('changed_at').notNull(),
  /** The unhealthy dependency the change to this status is put down to, if any. */
  causedBySystemId: uuid('caused_by_system_id'),
});

/** The secret token of a heartbeat check (its SHA-256 only) and when it last beat. */
export const heartbeats = healthcheckSchema.table('heartbeats', {
  healthCheckId: uuid('health_check_id')
    .primaryKey()
    .references(() => healthChecks.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  /** When the token was issued: a check that never beat is late from here on. */
  issuedAt: instant('issued_at').notNull(),
  lastBeatAt: instant('last_beat_at'),
});

/** A catalog system depending on another (both by id only: plugins share no foreign keys). */
export const systemDependencies = healthcheckSchema.table(
  'system_dependencies',
  {
    systemId: uuid('system_id').notNull(),
    dependsOnSystemId: uuid('depends_on_system_id').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.systemId, table.dependsOnSystemId] }),
    index('system_dependencies_depends_on_idx').on(table.dependsOnSystemId),
  ],
);

/**
 * Results summed per check and hour or day (UTC), written in the statement that stores the
 * results they summarise; uptime and latency over long windows read these, never raw results.
 */
export const resultRollups = healthcheckSchema.table(
  'result_rollups',
  {
    healthCheckId: uuid('health_check_id')
      .notNull()
      .references(() => healthChecks.id, { onDelete: 'cascade' }),
    granularity: text('granularity').$type<'hour' | 'day'>().notNull(),
    bucketStart: instant('bucket_start').notNull(),
    runs: integer('runs').notNull(),
    failures: integer('failures').notNull(),
    latencySumMs: bigint('latency_sum_ms', { mode: 'number' }).notNull(),
    latencyMaxMs: integer('latency_max_ms').notNull(),
    /** Runs per latency bucket (see rollups/latency-buckets.ts). */
    latencyBuckets: integer('latency_buckets').array().notNull(),
    /** Each scheduled run stands for its interval: seconds it found the check passing or failing. */
    upSeconds: integer('up_seconds').notNull(),
    downSeconds: integer('down_seconds').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.healthCheckId, table.granularity, table.bucketStart] }),
    index('result_rollups_bucket_start_idx').on(table.bucketStart),
  ],
);
