/**
 * Upper edges (exclusive, in ms) of the latency buckets rollups count runs in; a last bucket
 * holds everything from 60 s up. Percentiles read from them are exact to the bucket: the value
 * reported is the upper edge of the bucket holding the percentile (or the largest latency seen,
 * when that is lower), so it is never below the true one and never above the next edge.
 */
export const LATENCY_EDGES_MS = [
  1, 2, 5, 10, 20, 50, 100, 200, 300, 500, 750, 1_000, 1_500, 2_000, 3_000, 5_000, 10_000, 20_000,
  60_000,
] as const;

export const LATENCY_BUCKETS = LATENCY_EDGES_MS.length + 1;

/** The bucket a latency falls in, as `width_bucket(latency, edges)` answers in SQL. */
export function latencyBucket(latencyMs: number): number {
  let bucket = 0;
  while (bucket < LATENCY_EDGES_MS.length && latencyMs >= LATENCY_EDGES_MS[bucket]!) bucket += 1;
  return bucket;
}

/**
 * The `fraction` percentile (nearest rank) of the runs counted in `buckets`, as the upper edge
 * of its bucket, capped by `maxMs`; null with no runs.
 */
export function percentileOf(
  buckets: readonly number[],
  maxMs: number,
  fraction: number,
): number | null {
  const total = buckets.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(fraction * total));
  let seen = 0;
  for (const [bucket, count] of buckets.entries()) {
    seen += count;
    if (seen >= rank) return Math.min(LATENCY_EDGES_MS[bucket] ?? maxMs, maxMs);
  }
  return maxMs;
}

/** Adds bucket counts element by element. */
export function addBuckets(into: number[], more: readonly number[]): number[] {
  for (const [bucket, count] of more.entries()) into[bucket] = (into[bucket] ?? 0) + count;
  return into;
}
