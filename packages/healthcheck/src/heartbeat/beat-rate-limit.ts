import type { RateLimit } from '@checkline/core';
import { budgetFor } from '@checkline/core';

/**
 * Sixty beats a minute per heartbeat check: a job reports once a run, so this only stops a token
 * (leaked, or in a loop gone wrong) from turning beats into a stream of writes.
 */
export const defaultBeatRateLimit: RateLimit = { points: 60, durationSeconds: 60 };

/**
 * Each heartbeat check's budget of beats, counted per check once its token is verified (so
 * strangers guessing tokens spend nobody's budget); `false` counts nothing.
 */
export const beatRateLimiter = (limit: RateLimit | false) => budgetFor(limit, 'healthcheck-beat');

export type BeatBudget = ReturnType<typeof beatRateLimiter>;
