import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import type { Database } from '@checkline/db';
import { keysetOrder } from '@checkline/db';
import { and, asc, eq, gte, lt } from 'drizzle-orm';
import { deliveries } from '../db/schema.ts';
import type { Delivery, GetDeliveriesInput } from './schemas.ts';

type DeliveryRow = typeof deliveries.$inferSelect;

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    notificationId: row.messageId,
    userId: row.userId,
    recipientKind: row.recipientKind,
    strategyId: row.strategyId,
    status: row.status,
    transactional: row.transactional,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    lastError: row.lastError,
    skipReason: row.skipReason,
    attemptLog: row.attemptLog,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The deliveries of one send call, in the order they were written. */
export async function deliveriesOfMessage(db: Database, messageId: string): Promise<Delivery[]> {
  const rows = await db
    .select()
    .from(deliveries)
    .where(eq(deliveries.messageId, messageId))
    .orderBy(asc(deliveries.createdAt), asc(deliveries.id));
  return rows.map(toDelivery);
}

const deliveryPages = keysetPages(
  'notification.deliveries',
  keysetOrder([deliveries.createdAt, deliveries.id], 'desc'),
);

/**
 * The delivery log, newest first, filtered by status, strategy, user, notification and time;
 * `toEntries` makes the page's rows what the log shows.
 */
export async function listDeliveries<T extends object>(
  db: Database,
  input: GetDeliveriesInput,
  scope: PageScope,
  toEntries: (rows: DeliveryRow[]) => Promise<T[]>,
): Promise<{ deliveries: T[]; nextCursor: string | null }> {
  const where = and(
    input.status === undefined ? undefined : eq(deliveries.status, input.status),
    input.strategyId === undefined ? undefined : eq(deliveries.strategyId, input.strategyId),
    input.userId === undefined ? undefined : eq(deliveries.userId, input.userId),
    input.notificationId === undefined ? undefined : eq(deliveries.messageId, input.notificationId),
    input.createdFrom === undefined
      ? undefined
      : gte(deliveries.createdAt, new Date(input.createdFrom)),
    input.createdBefore === undefined
      ? undefined
      : lt(deliveries.createdAt, new Date(input.createdBefore)),
  );
  const page = await deliveryPages.read(db, deliveries, { ...input, where }, scope, toEntries);
  return { deliveries: page.items, nextCursor: page.nextCursor };
}
