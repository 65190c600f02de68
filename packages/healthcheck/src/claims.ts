import type { Database } from '@checkline/db';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { healthChecks, lateStarts } from './db/schema.ts';
import type { LateWait } from './late-start.ts';

/** One due run this process has claimed. */
export interface ClaimedRun {
  healthCheckId: string;
  type: string;
  config: Record<string, unknown>;
  timeoutMs: number;
  dueAt: Date;
  systemId: string;
  /** The check's creator (`{kind}:{id}`); null for checks made before it was recorded. */
  createdBy: string | null;
}

export interface ClaimOptions {
  now: Date;
  /** At most this many runs. */
  limit: number;
  /** Added to a check's timeout for the lease. */
  leaseMarginMs: number;
}

/**
 * Claims due runs for this process. Two kinds are due: a check whose `nextRunAt` has come, and
 * a claimed run whose lease lapsed (its process died mid-run), retried with its own due time.
 * Rows other schedulers hold are skipped, never waited for. Claiming advances `nextRunAt` to
 * the first due time after `now`, so a process that was down runs a missed stretch once.
 * Call inside a short transaction; run the checks after it commits.
 */
export async function claimDueRuns(tx: Database, options: ClaimOptions): Promise<ClaimedRun[]> {
  const { now, limit, leaseMarginMs } = options;
  const due = await tx
    .select({ id: healthChecks.id })
    .from(healthChecks)
    .where(
      or(
        and(isNull(healthChecks.claimedDueAt), lte(healthChecks.nextRunAt, now)),
        lte(healthChecks.claimedUntil, now),
      ),
    )
    .orderBy(asc(sql`coalesce(${healthChecks.claimedDueAt}, ${healthChecks.nextRunAt})`))
    .limit(limit)
    .for('update', { skipLocked: true });
  if (due.length === 0) return [];

  const at = sql`${now.toISOString()}::timestamptz`;
  const { nextRunAt, claimedDueAt, intervalSeconds, timeoutMs } = healthChecks;
  const firstDueAfterNow = sql`${nextRunAt} + ${intervalSeconds} * interval '1 second'
    * (floor(extract(epoch from (${at} - ${nextRunAt})) / ${intervalSeconds}) + 1)`;
  const rows = await tx
    .update(healthChecks)
    .set({
      claimedDueAt: sql`coalesce(${claimedDueAt}, ${nextRunAt})`,
      nextRunAt: sql`case when ${claimedDueAt} is null then ${firstDueAfterNow} else ${nextRunAt} end`,
      claimedUntil: sql`${at} + (${timeoutMs} + ${leaseMarginMs}) * interval '1 millisecond'`,
    })
    .where(
      inArray(
        healthChecks.id,
        due.map((row) => row.id),
      ),
    )
    .returning({
      healthCheckId: healthChecks.id,
      type: healthChecks.type,
      config: healthChecks.config,
      timeoutMs: healthChecks.timeoutMs,
      dueAt: healthChecks.claimedDueAt,
      systemId: healthChecks.systemId,
      createdBy: healthChecks.createdBy,
    });
  return rows.map((row) => ({ ...row, dueAt: row.dueAt! }));
}

/** Gives a claimed run back unfinished (shutdown): any scheduler may retry it at once. */
export async function releaseRun(db: Database, run: ClaimedRun, now: Date) {
  await db
    .update(healthChecks)
    .set({ claimedUntil: now })
    .where(and(eq(healthChecks.id, run.healthCheckId), eq(healthChecks.claimedDueAt, run.dueAt)));
}

/**
 * Gives back a run that could not start in time, like `releaseRun`, and records its late start
 * (getSchedulerStatus counts them), in one statement. Nothing is recorded for a claim that is no
 * longer ours (its check deleted or changed meanwhile).
 */
export async function giveBackLateRun(
  db: Database,
  run: ClaimedRun,
  late: { at: Date; processId: string; wait: LateWait },
) {
  const at = sql`${late.at.toISOString()}::timestamptz`;
  const dueAt = sql`${run.dueAt.toISOString()}::timestamptz`;
  const queueWaitMs = late.wait.waitedFor === 'turn' ? null : Math.round(late.wait.queueWaitMs);
  await db.execute(sql`
    with released as (
      update ${healthChecks} set claimed_until = ${at}
      where id = ${run.healthCheckId}::uuid and claimed_due_at = ${dueAt}
      returning id
    )
    insert into ${lateStarts} (health_check_id, due_at, at, process_id, waited_for, queue_wait_ms)
    select id, ${dueAt}, ${at}, ${late.processId}::text, ${late.wait.waitedFor}::text,
      ${queueWaitMs}::int
    from released`);
}

/** The earliest time a run falls due that no one has claimed; null with no checks at all. */
export async function nextDueAt(db: Database): Promise<Date | null> {
  const [row] = await db
    .select({ at: healthChecks.nextRunAt })
    .from(healthChecks)
    .where(isNull(healthChecks.claimedDueAt))
    .orderBy(asc(healthChecks.nextRunAt))
    .limit(1);
  return row?.at ?? null;
}

/**
 * Puts claimed runs off until `until` (their checks' hosts or owners have enough in flight);
 * any scheduler may take them then, each with its own due time.
 */
export async function deferRuns(db: Database, runs: readonly ClaimedRun[], until: Date) {
  if (runs.length === 0) return;
  await db
    .update(healthChecks)
    .set({ claimedUntil: until })
    .where(
      inArray(
        healthChecks.id,
        runs.map((run) => run.healthCheckId),
      ),
    );
}
