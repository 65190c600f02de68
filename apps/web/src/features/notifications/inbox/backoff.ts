/** First wait before reconnecting a dropped stream, and the longest wait between tries. */
export const FIRST_RETRY_MS = 1_000;
export const LONGEST_RETRY_MS = 30_000;

/**
 * How long to wait before try number `attempt` (0 for the first retry): doubling from one second
 * up to thirty, with up to a quarter of jitter so tabs of a restarted server do not all come back
 * in the same instant.
 */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt));
  return Math.round(base * (1 - random() * 0.25));
}
