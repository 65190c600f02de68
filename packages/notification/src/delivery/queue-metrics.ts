import type { Metrics } from '@checkline/core';
import type { Database } from '@checkline/db';
import { count, eq } from 'drizzle-orm';
import { deliveries } from '../db/schema.ts';
import type { NotificationStrategyRegistry } from '../strategies/registry.ts';

/**
 * Deliveries waiting per strategy, read once per scrape (one grouped statement): every
 * registered strategy appears, at 0 when nothing waits for it.
 */
export function readQueueOnScrape(
  metrics: Metrics,
  db: Database,
  strategies: NotificationStrategyRegistry,
) {
  metrics.readOnScrape('delivery_queue', async () => {
    const rows = await db
      .select({ strategy: deliveries.strategyId, depth: count() })
      .from(deliveries)
      .where(eq(deliveries.status, 'pending'))
      .groupBy(deliveries.strategyId);
    metrics.deliveryQueue.reset();
    for (const strategy of strategies.list()) {
      metrics.deliveryQueue.set({ strategy: strategy.qualifiedId }, 0);
    }
    for (const row of rows) metrics.deliveryQueue.set({ strategy: row.strategy }, row.depth);
  });
}
