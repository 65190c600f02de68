import { conflict, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { eq, sql } from 'drizzle-orm';
import { deliveries } from '../db/schema.ts';
import type { Delivery } from './schemas.ts';
import { toDelivery } from './service.ts';

/**
 * Puts a `failed` delivery back in the queue, due now, with a fresh round of attempts (its
 * attempt log kept, so what went wrong before stays visible). Any other status is CONFLICT:
 * a pending one is still being tried, a sent one arrived, a skipped one had no one to reach.
 */
export async function redeliver(
  db: Database,
  id: string,
  options: { maxAttempts: number },
): Promise<Delivery> {
  const [row] = await db
    .update(deliveries)
    .set({
      status: 'pending',
      maxAttempts: sql`${deliveries.attempts} + ${options.maxAttempts}`,
      // The database's clock, as queueing uses: due at once for every worker.
      nextAttemptAt: sql`clock_timestamp()`,
      claimedUntil: null,
      claimToken: null,
      finishedAt: null,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(sql`${deliveries.id} = ${id} and ${deliveries.status} = 'failed'`)
    .returning();
  if (row) return toDelivery(row);
  const [current] = await db
    .select({ status: deliveries.status })
    .from(deliveries)
    .where(eq(deliveries.id, id));
  if (!current) throw notFound('Delivery', id);
  throw conflict(`Only a failed delivery can be redelivered; this one is ${current.status}`);
}
