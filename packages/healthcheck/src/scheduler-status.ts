import type { Database } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { healthChecks, lateStarts, results } from './db/schema.ts';
import type { GetSchedulerStatusInput, SchedulerStatus } from './scheduler-schemas.ts';

/** Runs due at `now` that no process holds: never claimed, or their lease lapsed. */
export async function countDueBacklog(db: Database, now: Date) {
  const at = now.toISOString();
  const [row] = await queryRows<{ due: number; oldest: number | null }>(
    db,
    sql`select count(*)::int as due,
        (extract(epoch from min(coalesce(${healthChecks.claimedDueAt}, ${healthChecks.nextRunAt}))) * 1000)::float8 as oldest
      from ${healthChecks}
      where (${healthChecks.claimedDueAt} is null and ${healthChecks.nextRunAt} <= ${at}::timestamptz)
        or ${healthChecks.claimedUntil} <= ${at}::timestamptz`,
  );
  return {
    due: Number(row?.due ?? 0),
    oldestDueAt: row?.oldest == null ? null : new Date(Number(row.oldest)),
  };
}

interface StatsRow {
  processId: string | null;
  total: boolean;
  runs: number;
  p50: number | null;
  p99: number | null;
  waitP50: number | null;
  waitP99: number | null;
  last: number | null;
}

interface LateRow {
  processId: string | null;
  total: boolean;
  late: number;
}

const orNull = (value: number | null | undefined) => (value == null ? null : Number(value));
const lag = (row: StatsRow | undefined) => ({ p50: orNull(row?.p50), p99: orNull(row?.p99) });
const queueWait = (row: StatsRow | undefined) => ({
  p50: orNull(row?.waitP50),
  p99: orNull(row?.waitP99),
});

/**
 * How the schedulers keep up: the due backlog now, and runs per second with percentiles of lag
 * and of the wait for connection slots (scheduler pressure), and late starts (runs given back
 * unstarted), over the last `windowMinutes`, in all and per process (from the process id and lag
 * each scheduled result carries, and the late starts recorded). Three statements.
 */
export async function readSchedulerStatus(
  db: Database,
  input: GetSchedulerStatusInput,
  now: Date,
): Promise<SchedulerStatus> {
  const windowSeconds = input.windowMinutes * 60;
  const since = new Date(now.getTime() - windowSeconds * 1_000).toISOString();
  const [backlog, stats, late] = await Promise.all([
    countDueBacklog(db, now),
    queryRows<StatsRow>(
      db,
      sql`select ${results.processId} as "processId",
          grouping(${results.processId}) = 1 as total,
          count(*)::int as runs,
          percentile_disc(0.5) within group (order by ${results.lagMs}) as p50,
          percentile_disc(0.99) within group (order by ${results.lagMs}) as p99,
          percentile_disc(0.5) within group (order by ${results.queueWaitMs}) as "waitP50",
          percentile_disc(0.99) within group (order by ${results.queueWaitMs}) as "waitP99",
          (extract(epoch from max(${results.checkedAt})) * 1000)::float8 as last
        from ${results}
        where ${results.checkedAt} > ${since}::timestamptz
          and ${results.checkedAt} <= ${now.toISOString()}::timestamptz
          and ${results.processId} is not null
        group by grouping sets ((${results.processId}), ())`,
    ),
    queryRows<LateRow>(
      db,
      sql`select ${lateStarts.processId} as "processId",
          grouping(${lateStarts.processId}) = 1 as total,
          count(*)::int as late
        from ${lateStarts}
        where ${lateStarts.at} > ${since}::timestamptz
          and ${lateStarts.at} <= ${now.toISOString()}::timestamptz
        group by grouping sets ((${lateStarts.processId}), ())`,
    ),
  ]);
  const total = stats.find((row) => row.total);
  const lateOf = (processId: string) =>
    Number(late.find((row) => !row.total && row.processId === processId)?.late ?? 0);
  const processIds = new Set(
    [...stats, ...late].filter((row) => !row.total).map((row) => row.processId!),
  );
  const processes = [...processIds]
    .map((processId) => {
      const row = stats.find((each) => !each.total && each.processId === processId);
      const runs = Number(row?.runs ?? 0);
      return {
        processId,
        runs,
        runsPerSecond: runs / windowSeconds,
        lagMs: lag(row),
        queueWaitMs: queueWait(row),
        lateStarts: lateOf(processId),
        lastRunAt: row?.last == null ? null : new Date(Number(row.last)).toISOString(),
      };
    })
    .sort((a, b) => a.processId.localeCompare(b.processId));
  return {
    at: now.toISOString(),
    windowSeconds,
    dueBacklog: backlog.due,
    oldestDueAt: backlog.oldestDueAt?.toISOString() ?? null,
    runsPerSecond: Number(total?.runs ?? 0) / windowSeconds,
    lagMs: lag(total),
    queueWaitMs: queueWait(total),
    lateStarts: Number(late.find((row) => row.total)?.late ?? 0),
    processes,
  };
}
