import { describe, expect, it } from 'vitest';
import { FIRST_RETRY_MS, LONGEST_RETRY_MS, retryDelay } from './backoff.ts';

describe('retryDelay', () => {
  it('doubles from the first wait and stops at the longest', () => {
    const noJitter = () => 0;
    const waits = [0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => retryDelay(attempt, noJitter));
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('takes at most a quarter off for jitter, never more than the longest wait', () => {
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const full = retryDelay(attempt, () => 0);
      const least = retryDelay(attempt, () => 0.999_999);
      expect(least).toBeGreaterThanOrEqual(Math.floor(full * 0.75));
      expect(full).toBeLessThanOrEqual(LONGEST_RETRY_MS);
      expect(least).toBeGreaterThanOrEqual(Math.floor(FIRST_RETRY_MS * 0.75));
    }
  });
});
