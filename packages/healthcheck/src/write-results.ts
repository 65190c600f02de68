import type { Database } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import type { CheckOutcome } from './check-type.ts';
import { healthChecks, resultRollups, results } from './db/schema.ts';
import { LATENCY_EDGES_MS } from './rollups/latency-buckets.ts';

/** One finished run to write: scheduled (due time, lag, process) or asked for by hand (nulls). */
export interface FinishedRun {
  healthCheckId: string;
  outcome: CheckOutcome;
  dueAt: Date | null;
  checkedAt: Date;
  lagMs: number | null;
  processId: string | null;
}

/** A result the batch stored, with its check's system. */
export interface WrittenResult {
  row: typeof results.$inferSelect;
  systemId: string;
}

interface WrittenRow {
  id: string;
  healthCheckId: string;
  systemId: string;
  status: CheckOutcome['status'];
  latencyMs: number;
  message: string;
  dueAt: number | null;
  checkedAt: number;
  lagMs: number | null;
  processId: string | null;
  queueWaitMs: number | null;
  pending: boolean;
}

/** Instants travel as epoch milliseconds: both drivers answer raw SQL dates differently. */
const epochMs = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::float8`);

const edges = sql.raw(`array[${LATENCY_EDGES_MS.join(',')}]::int[]`);
/** Runs per latency bucket of a group, as an int array (one `count` per bucket). */
const bucketCounts = sql.raw(
  `array[${Array.from(
    { length: LATENCY_EDGES_MS.length + 1 },
    (_, bucket) => `count(*) filter (where bucket = ${bucket})`,
  ).join(', ')}]::int[]`,
);

/** The upsert of one granularity's rollups from the `measured` rows of the statement. */
const rollupUpsert = (granularity: 'hour' | 'day') => {
  // A literal, not a parameter: the GROUP BY must repeat the SELECT's expression exactly.
  const unit = sql.raw(`'${granularity}'`);
  return sql`
  insert into ${resultRollups} as rollup (health_check_id, granularity, bucket_start, runs,
    failures, latency_sum_ms, latency_max_ms, latency_buckets, up_seconds, down_seconds)
  select health_check_id, ${unit}, date_trunc(${unit}, checked_at, 'UTC'), count(*),
    count(*) filter (where status = 'fail'), sum(latency_ms), max(latency_ms), ${bucketCounts},
    -- A warning (a certificate nearing expiry) is a working service: up time, not down time.
    coalesce(sum(seconds) filter (where status <> 'fail'), 0),
    coalesce(sum(seconds) filter (where status = 'fail'), 0)
  from measured
  group by health_check_id, date_trunc(${unit}, checked_at, 'UTC')
  on conflict (health_check_id, granularity, bucket_start) do update set
    runs = rollup.runs + excluded.runs,
    failures = rollup.failures + excluded.failures,
    latency_sum_ms = rollup.latency_sum_ms + excluded.latency_sum_ms,
    latency_max_ms = greatest(rollup.latency_max_ms, excluded.latency_max_ms),
    latency_buckets = array(
      select coalesce(old, 0) + coalesce(new, 0)
      from unnest(rollup.latency_buckets, excluded.latency_buckets) with ordinality as b(old, new, n)
      order by n),
    up_seconds = rollup.up_seconds + excluded.up_seconds,
    down_seconds = rollup.down_seconds + excluded.down_seconds
  returning 1`;
};

/**
 * Writes a batch of finished runs in ONE statement: each claim it answers ends, each result is
 * stored (a due time already answered is skipped; a check deleted meanwhile too), and the hourly
 * and daily rollups of the stored results grow by exactly them. A scheduled run stands for its
 * check's interval in the rollups' up/down seconds. Answers the stored results with their
 * systems; count-alert-states.ts then counts them against their checks' thresholds.
 */
export async function writeResults(
  db: Database,
  runs: readonly FinishedRun[],
): Promise<WrittenResult[]> {
  if (runs.length === 0) return [];
  const input = JSON.stringify(
    runs.map((run) => ({
      health_check_id: run.healthCheckId,
      status: run.outcome.status,
      latency_ms: Math.max(0, Math.round(run.outcome.latencyMs)),
      message: run.outcome.message.slice(0, 2_000),
      due_at: run.dueAt?.toISOString() ?? null,
      checked_at: run.checkedAt.toISOString(),
      lag_ms: run.lagMs === null ? null : Math.max(0, Math.round(run.lagMs)),
      process_id: run.processId,
      queue_wait_ms: Math.max(0, Math.round(run.outcome.queueWaitMs ?? 0)),
    })),
  );
  const rows = await queryRows<WrittenRow>(
    db,
    sql`
    with input as (
      select * from jsonb_to_recordset(${input}::jsonb) as t(health_check_id uuid, status text,
        latency_ms int, message text, due_at timestamptz, checked_at timestamptz, lag_ms int,
        process_id text, queue_wait_ms int)
    ),
    checks as (
      select id, system_id, interval_seconds from ${healthChecks}
      where id in (select health_check_id from input)
      order by id
      for key share
    ),
    ended as (
      update ${healthChecks} as checked set claimed_due_at = null, claimed_until = null
      from input
      where checked.id = input.health_check_id and checked.claimed_due_at = input.due_at
      returning checked.id
    ),
    inserted as (
      insert into ${results} (health_check_id, status, latency_ms, message, due_at, checked_at,
        lag_ms, process_id, queue_wait_ms)
      select input.health_check_id, input.status, input.latency_ms, input.message, input.due_at,
        input.checked_at, input.lag_ms, input.process_id, input.queue_wait_ms
      from input join checks on checks.id = input.health_check_id
      on conflict do nothing
      returning *
    ),
    measured as (
      select inserted.*, checks.system_id,
        case when inserted.due_at is null then 0 else checks.interval_seconds end as seconds,
        width_bucket(inserted.latency_ms, ${edges}) as bucket
      from inserted join checks on checks.id = inserted.health_check_id
    ),
    hourly as (${rollupUpsert('hour')}),
    daily as (${rollupUpsert('day')})
    -- Data-modifying CTEs run to completion whether or not this reads them.
    select measured.id, measured.health_check_id as "healthCheckId",
      measured.system_id as "systemId", measured.status, measured.latency_ms as "latencyMs",
      measured.message, ${epochMs('measured.due_at')} as "dueAt",
      ${epochMs('measured.checked_at')} as "checkedAt", measured.lag_ms as "lagMs",
      measured.process_id as "processId", measured.queue_wait_ms as "queueWaitMs",
      measured.pending
    from measured`,
  );
  return rows.map(({ systemId, dueAt, checkedAt, ...row }) => ({
    systemId,
    row: {
      ...row,
      dueAt: dueAt === null ? null : new Date(Number(dueAt)),
      checkedAt: new Date(Number(checkedAt)),
    },
  }));
}
