import type { Metrics } from '@checkline/core';
import type { Database } from '@checkline/db';
import { countDueBacklog } from './scheduler-status.ts';

/** The due backlog of every process's schedulers, read once per scrape (one statement). */
export function readBacklogOnScrape(metrics: Metrics, db: Database, now: () => Date) {
  metrics.readOnScrape('check_backlog', async () => {
    const at = now();
    const backlog = await countDueBacklog(db, at);
    metrics.checkBacklog.set(backlog.due);
    const oldest = backlog.oldestDueAt?.getTime() ?? at.getTime();
    metrics.checkBacklogAge.set(Math.max(0, (at.getTime() - oldest) / 1_000));
  });
}
