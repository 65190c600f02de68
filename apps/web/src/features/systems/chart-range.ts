import type { ApiClient } from '../../api/client.ts';

export const chartRanges = ['1h', '24h', '7d', '30d'] as const;
export type ChartRange = (typeof chartRanges)[number];

export interface ChartPoint {
  /** ISO instant of the run, or of the start of its rollup bucket. */
  at: string;
  latencyMs: number;
  failed: boolean;
}

const HOUR_MS = 3_600_000;
const HISTORY_PAGE = 1000;
/** An hour of a check run every 10 s is 360 results: five pages is more than enough. */
const MAX_HISTORY_PAGES = 5;

interface HistoryResult {
  status: 'pass' | 'warn' | 'fail';
  latencyMs: number;
  checkedAt: string;
}

interface RollupBucket {
  bucketStart: string;
  failures: number;
  meanLatencyMs: number | null;
}

/** Results checked after `since`, oldest first: one point per run. */
export function historyPoints(results: readonly HistoryResult[], since: Date): ChartPoint[] {
  return results
    .filter((result) => Date.parse(result.checkedAt) >= since.getTime())
    .map((result) => ({
      at: result.checkedAt,
      latencyMs: result.latencyMs,
      failed: result.status === 'fail',
    }))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** Rollup buckets with runs as points of their mean latency, oldest first. */
export function rollupPoints(buckets: readonly RollupBucket[]): ChartPoint[] {
  return buckets.flatMap((bucket) =>
    bucket.meanLatencyMs === null
      ? []
      : [
          {
            at: bucket.bucketStart,
            latencyMs: Math.round(bucket.meanLatencyMs),
            failed: bucket.failures > 0,
          },
        ],
  );
}

/**
 * The points of one range: the last hour run by run from `getHistory` (read back a page at a
 * time), longer ranges from the hourly (24h, 7d) or daily (30d) rollups.
 */
export async function loadChartPoints(
  api: ApiClient,
  healthCheckId: string,
  range: ChartRange,
  now: Date,
): Promise<ChartPoint[]> {
  if (range !== '1h') {
    const { buckets } = await api.healthcheck.getRollups({ healthCheckId, window: range });
    return rollupPoints(buckets);
  }
  const since = new Date(now.getTime() - HOUR_MS);
  const results: HistoryResult[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_HISTORY_PAGES; pages += 1) {
    const page = await api.healthcheck.getHistory({ healthCheckId, limit: HISTORY_PAGE, cursor });
    results.push(...page.results);
    const oldest = page.results.at(-1);
    cursor = page.nextCursor ?? undefined;
    if (!cursor || !oldest || Date.parse(oldest.checkedAt) < since.getTime()) break;
  }
  return historyPoints(results, since);
}
