import { keysetPages } from '@checkline/core';
import type { Database } from '@checkline/db';
import { keysetOrder } from '@checkline/db';
import { and, asc, eq } from 'drizzle-orm';
import { deliveries } from '../db/schema.ts';
import type { Delivery, DeliveryPage, GetDeliveriesInput } from './schemas.ts';

type DeliveryRow = typeof deliveries.$inferSelect;

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    notificationId: row.messageId,
    userId: row.userId,
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

/** The delivery log, newest first, filtered by status, strategy, user and notification. */
export async function listDeliveries(
  db: Database,
  input: GetDeliveriesInput,
): Promise<DeliveryPage> {
  const where = and(
    input.status === undefined ? undefined : eq(deliveries.status, input.status),
    input.strategyId === undefined ? undefined : eq(deliveries.strategyId, input.strategyId),
    input.userId === undefined ? undefined : eq(deliveries.userId, input.userId),
    input.notificationId === undefined ? undefined : eq(deliveries.messageId, input.notificationId),
  );
  const page = await deliveryPages.read(db, deliveries, { ...input, where });
  return { deliveries: page.rows.map(toDelivery), nextCursor: page.nextCursor };
}
