import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgSchema, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { instant } from '../columns.ts';

/** Tables of the platform itself, not of any plugin; migrated before every plugin. */
export const infrastructureSchema = pgSchema('checkline');

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

/**
 * Rate-limit budgets every process counts against together (rate-limiter-flexible's drizzle
 * store): points spent under `key` until `expire`.
 */
export const rateLimits = infrastructureSchema.table('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: instant('expire'),
});

/**
 * The answers of mutations sent with an `Idempotency-Key`, per caller, procedure and key, kept
 * until `expires_at` (24 h) so a retry answers the first result instead of applying again.
 * `output` (the answer sealed with AES-256-GCM: it may hold a new secret) null is a claim still
 * running (a mutation that keeps its own transactions); a transactional mutation writes its row
 * and its output in its own transaction.
 */
export const idempotencyKeys = infrastructureSchema.table(
  'idempotency_keys',
  {
    principal: text('principal').notNull(),
    procedure: text('procedure').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the input: the same key with another input is refused. */
    inputHash: text('input_hash').notNull(),
    output: text('output'),
    createdAt: instant('created_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.principal, table.procedure, table.key] }),
    index('idempotency_keys_expires_idx').on(table.expiresAt),
  ],
);
