import type { Database } from '@checkline/db';
import { rateLimits } from '@checkline/db';
import { lt } from 'drizzle-orm';
import type { Logger } from './logger.ts';
import type { PeriodicTask } from './periodic-task.ts';
import { createPeriodicTask } from './periodic-task.ts';

/** A count is deleted once it has been expired this long (as rate-limiter-flexible's own sweep). */
const EXPIRED_FOR_MS = 60 * 60_000;
const SWEEP_INTERVAL_MS = 5 * 60_000;

/** Deletes the shared rate-limit counts that expired over an hour before `now`; answers how many. */
export async function sweepExpiredRateLimits(db: Database, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(rateLimits)
    .where(lt(rateLimits.expire, new Date(now.getTime() - EXPIRED_FOR_MS)))
    .returning({ key: rateLimits.key });
  return deleted.length;
}

/**
 * The sweep of the shared rate-limit table, every five minutes from the server's start to its
 * stop. The limiters' own sweep timers are off: they outlived the server that made them.
 */
export function createRateLimitSweep(db: Database, logger: Logger): PeriodicTask {
  return createPeriodicTask({
    name: 'rate limit sweep',
    intervalMs: SWEEP_INTERVAL_MS,
    logger,
    run: () => sweepExpiredRateLimits(db),
  });
}
