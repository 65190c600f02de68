import type { Database } from '@checkline/db';
import { and, asc, eq, gte } from 'drizzle-orm';
import { resultRollups } from './db/schema.ts';
import { windowSpans, windowStart } from './uptime.ts';
import type { GetRollupsInput, Rollups } from './uptime-schemas.ts';

/**
 * One check's rollups over a window, oldest first: hourly buckets for 24h and 7d, daily ones for
 * 30d and 90d, from the bucket holding the window's start (as `getUptime` sums them).
 */
export async function readRollupSeries(
  db: Database,
  input: GetRollupsInput,
  now: Date,
): Promise<Rollups> {
  const { granularity } = windowSpans[input.window];
  const rows = await db
    .select()
    .from(resultRollups)
    .where(
      and(
        eq(resultRollups.healthCheckId, input.healthCheckId),
        eq(resultRollups.granularity, granularity),
        gte(resultRollups.bucketStart, windowStart(input.window, now)),
      ),
    )
    .orderBy(asc(resultRollups.bucketStart));
  return {
    healthCheckId: input.healthCheckId,
    granularity,
    buckets: rows.map((row) => {
      const checkedSeconds = row.upSeconds + row.downSeconds;
      return {
        bucketStart: row.bucketStart.toISOString(),
        runs: row.runs,
        failures: row.failures,
        uptimePercent: checkedSeconds === 0 ? null : (100 * row.upSeconds) / checkedSeconds,
        meanLatencyMs: row.runs === 0 ? null : row.latencySumMs / row.runs,
        maxLatencyMs: row.runs === 0 ? null : row.latencyMaxMs,
      };
    }),
  };
}
