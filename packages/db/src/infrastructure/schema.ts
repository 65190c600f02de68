import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Tables of the platform itself, not of any plugin; migrated before every plugin. */
export const infrastructureSchema = pgSchema('checkline');

const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Domain events written in the transaction of the change that raised them, so none is lost when
 * a process dies between commit and dispatch. `next_attempt_at` null means given up (the last
 * error is kept); `attempts` counts claims and doubles as the claim's token.
 */
export const eventOutbox = infrastructureSchema.table(
  'event_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').defaultNow(),
    claimedUntil: instant('claimed_until'),
    dispatchedAt: instant('dispatched_at'),
    lastError: text('last_error'),
  },
  (table) => [
    index('event_outbox_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.dispatchedAt} is null`),
    index('event_outbox_dispatched_idx')
      .on(table.dispatchedAt)
      .where(sql`${table.dispatchedAt} is not null`),
  ],
);
