import type { Database } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { asc, or, sql } from 'drizzle-orm';
import { healthChecks, resultRollups } from './db/schema.ts';
import { LATENCY_BUCKETS, addBuckets, percentileOf } from './rollups/latency-buckets.ts';
import type { GetUptimeInput, Uptime, UptimeFigures, UptimeWindow } from './uptime-schemas.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Which rollups answer a window: hourly for the short ones, daily for the long ones. */
export const windowSpans: Record<UptimeWindow, { granularity: 'hour' | 'day'; ms: number }> = {
  '24h': { granularity: 'hour', ms: DAY_MS },
  '7d': { granularity: 'hour', ms: 7 * DAY_MS },
  '30d': { granularity: 'day', ms: 30 * DAY_MS },
  '90d': { granularity: 'day', ms: 90 * DAY_MS },
};

/** The first bucket a window reads: the one holding `now` minus the window (UTC). */
export function windowStart(window: UptimeWindow, now: Date): Date {
  const { granularity, ms } = windowSpans[window];
  const unit = granularity === 'hour' ? HOUR_MS : DAY_MS;
  return new Date(Math.floor((now.getTime() - ms) / unit) * unit);
}

interface Totals {
  runs: number;
  failures: number;
  latencySumMs: number;
  latencyMaxMs: number;
  upSeconds: number;
  downSeconds: number;
  buckets: number[];
}

interface TotalsRow {
  window: UptimeWindow;
  healthCheckId: string;
  runs: number | string;
  failures: number | string;
  latencySumMs: number | string;
  latencyMaxMs: number | string;
  upSeconds: number | string;
  downSeconds: number | string;
  buckets: (number | string)[] | string;
}

const emptyTotals = (): Totals => ({
  runs: 0,
  failures: 0,
  latencySumMs: 0,
  latencyMaxMs: 0,
  upSeconds: 0,
  downSeconds: 0,
  buckets: Array.from({ length: LATENCY_BUCKETS }, () => 0),
});

function addTotals(into: Totals, more: Totals): Totals {
  into.runs += more.runs;
  into.failures += more.failures;
  into.latencySumMs += more.latencySumMs;
  into.latencyMaxMs = Math.max(into.latencyMaxMs, more.latencyMaxMs);
  into.upSeconds += more.upSeconds;
  into.downSeconds += more.downSeconds;
  addBuckets(into.buckets, more.buckets);
  return into;
}

function figures(window: UptimeWindow, totals: Totals): UptimeFigures {
  const checkedSeconds = totals.upSeconds + totals.downSeconds;
  return {
    window,
    uptimePercent: checkedSeconds === 0 ? null : (100 * totals.upSeconds) / checkedSeconds,
    runs: totals.runs,
    failures: totals.failures,
    downMinutes: totals.downSeconds / 60,
    meanLatencyMs: totals.runs === 0 ? null : totals.latencySumMs / totals.runs,
    p95LatencyMs: percentileOf(totals.buckets, totals.latencyMaxMs, 0.95),
  };
}

/** A Postgres int array as either driver answers it in raw SQL. */
const intArray = (value: TotalsRow['buckets']): number[] =>
  (typeof value === 'string' ? value.replace(/[{}]/g, '').split(',') : value).map(Number);

/** The checks `getUptime` covers, in system and name order. */
export async function checksCovered(db: Database, input: GetUptimeInput) {
  const systemIds = input.systemIds ?? [];
  const checkIds = input.healthCheckIds ?? [];
  return db
    .select({ id: healthChecks.id, systemId: healthChecks.systemId })
    .from(healthChecks)
    .where(
      or(
        sql`${healthChecks.systemId} = any(${sql.param(systemIds)}::uuid[])`,
        sql`${healthChecks.id} = any(${sql.param(checkIds)}::uuid[])`,
      ),
    )
    .orderBy(asc(healthChecks.systemId), asc(healthChecks.name));
}

/**
 * Uptime and latency per check and window, and per asked system, from the rollups alone: one
 * statement sums every window of every check (hourly rollups for 24h and 7d, daily for 30d and
 * 90d, from the start of the bucket holding the window's start), whatever their number.
 */
export async function readUptime(
  db: Database,
  input: GetUptimeInput,
  checks: readonly { id: string; systemId: string }[],
  now: Date,
): Promise<Uptime> {
  const windows = [...new Set(input.windows)];
  const rows =
    checks.length === 0
      ? []
      : await queryRows<TotalsRow>(
          db,
          sql`with windows(name, granularity, since) as (
            select * from jsonb_to_recordset(${JSON.stringify(
              windows.map((window) => ({
                name: window,
                granularity: windowSpans[window].granularity,
                since: windowStart(window, now).toISOString(),
              })),
            )}::jsonb) as t(name text, granularity text, since timestamptz)
          ),
          picked as (
            select windows.name, rollup.*
            from ${resultRollups} as rollup
            join windows on rollup.granularity = windows.granularity
              and rollup.bucket_start >= windows.since
            where rollup.health_check_id = any(${sql.param(checks.map((check) => check.id))}::uuid[])
          ),
          histogram as (
            select name, health_check_id, bucket.n, sum(bucket.runs)::int as runs
            from picked, unnest(picked.latency_buckets) with ordinality as bucket(runs, n)
            group by name, health_check_id, bucket.n
          ),
          histograms as (
            select name, health_check_id, array_agg(runs order by n) as buckets
            from histogram group by name, health_check_id
          )
          select picked.name as window, picked.health_check_id as "healthCheckId",
            sum(runs)::int as runs, sum(failures)::int as failures,
            sum(latency_sum_ms)::float8 as "latencySumMs", max(latency_max_ms) as "latencyMaxMs",
            sum(up_seconds)::float8 as "upSeconds", sum(down_seconds)::float8 as "downSeconds",
            histograms.buckets
          from picked join histograms using (name, health_check_id)
          group by picked.name, picked.health_check_id, histograms.buckets`,
        );
  const totals = new Map<string, Totals>();
  for (const row of rows) {
    totals.set(`${row.healthCheckId}/${row.window}`, {
      runs: Number(row.runs),
      failures: Number(row.failures),
      latencySumMs: Number(row.latencySumMs),
      latencyMaxMs: Number(row.latencyMaxMs),
      upSeconds: Number(row.upSeconds),
      downSeconds: Number(row.downSeconds),
      buckets: intArray(row.buckets),
    });
  }
  const totalsOf = (checkId: string, window: UptimeWindow) =>
    totals.get(`${checkId}/${window}`) ?? emptyTotals();
  return {
    checks: checks.map((check) => ({
      healthCheckId: check.id,
      systemId: check.systemId,
      windows: windows.map((window) => figures(window, totalsOf(check.id, window))),
    })),
    systems: [...new Set(input.systemIds ?? [])].map((systemId) => {
      const own = checks.filter((check) => check.systemId === systemId);
      return {
        systemId,
        windows: windows.map((window) =>
          figures(
            window,
            own.reduce((sum, check) => addTotals(sum, totalsOf(check.id, window)), emptyTotals()),
          ),
        ),
      };
    }),
  };
}
