import type { AnyColumn } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { healthChecks } from './db/schema.ts';

/**
 * Whether a check runs later than its interval says, as a SQL boolean: its latest run (`lagMs`
 * of its latest result) started more than one interval after its due time, or its oldest due
 * time not yet answered (claimed or not) has waited more than one interval.
 */
export const lateSql = (latestLagMs: AnyColumn) => {
  const { intervalSeconds, claimedDueAt, nextRunAt } = healthChecks;
  return sql<boolean>`(coalesce(${latestLagMs} > ${intervalSeconds} * 1000, false)
    or coalesce(${claimedDueAt}, ${nextRunAt}) < now() - ${intervalSeconds} * interval '1 second')`;
};
