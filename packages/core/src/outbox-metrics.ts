import type { Database } from '@checkline/db';
import { eventOutbox, queryRows } from '@checkline/db';
import { isNull, sql } from 'drizzle-orm';
import type { Metrics } from './metrics.ts';

/** Depth and age of the undispatched events, read once per scrape (the partial due index covers it). */
export function readOutboxOnScrape(metrics: Metrics, db: Database) {
  metrics.readOnScrape('event_outbox', async () => {
    const [row] = await queryRows<{ depth: number; age: number | null }>(
      db,
      sql`select count(*)::int as depth,
          extract(epoch from now() - min(${eventOutbox.createdAt}))::float8 as age
        from ${eventOutbox} where ${isNull(eventOutbox.dispatchedAt)}`,
    );
    metrics.outboxDepth.set(Number(row?.depth ?? 0));
    metrics.outboxAge.set(Math.max(0, Number(row?.age ?? 0)));
  });
}
