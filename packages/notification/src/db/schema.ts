import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const notificationSchema = pgSchema('notification');

const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
// clock_timestamp(): rows written in one transaction still get distinct, ordered times.
const writtenAt = (name: string) =>
  instant(name)
    .notNull()
    .default(sql`clock_timestamp()`);

export type Importance = 'info' | 'warning' | 'critical';
export type DeliveryStatus = 'pending' | 'sent' | 'failed' | 'skipped';
export type MessageKind = 'external' | 'transactional' | 'test';

/**
 * A strategy's administrator settings. Secret fields inside `config` and `layout_config` are
 * stored encrypted; each layer keeps the schema version it was written under.
 */
export const strategySettings = notificationSchema.table('strategy_settings', {
  /** Qualified: `{ownerPluginId}.{id}`. */
  strategyId: text('strategy_id').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  /** Null while an administrator has not configured the strategy. */
  config: jsonb('config'),
  configVersion: integer('config_version'),
  layoutConfig: jsonb('layout_config'),
  layoutVersion: integer('layout_version'),
  updatedAt: writtenAt('updated_at'),
});

/** One user's settings for one strategy (the seed's user notification preference). */
export const preferences = notificationSchema.table(
  'preferences',
  {
    userId: uuid('user_id').notNull(),
    strategyId: text('strategy_id').notNull(),
    /** Validated against the strategy's userConfig; secret fields encrypted. */
    config: jsonb('config'),
    configVersion: integer('config_version'),
    enabled: boolean('enabled').notNull().default(true),
    /** The user's id on the external platform, set by OAuth linking. */
    externalId: text('external_id'),
    linkedAt: instant('linked_at'),
    createdAt: writtenAt('created_at'),
    updatedAt: writtenAt('updated_at'),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.strategyId] }),
    index('preferences_strategy_id_idx').on(table.strategyId),
  ],
);

/**
 * A notification's content, the same columns in the inbox and in the messages sent outside
 * (a function: drizzle needs fresh column builders per table).
 */
const notificationContent = () => ({
  type: text('type').notNull(),
  title: text('title').notNull(),
  /** Markdown. */
  body: text('body').notNull().default(''),
  importance: text('importance').$type<Importance>().notNull().default('info'),
  actionLabel: text('action_label'),
  actionUrl: text('action_url'),
});

/** A row's call to action: both columns, or none. */
export function storedAction(row: {
  actionLabel: string | null;
  actionUrl: string | null;
}): { label: string; url: string } | null {
  return row.actionLabel !== null && row.actionUrl !== null
    ? { label: row.actionLabel, url: row.actionUrl }
    : null;
}

/** The in-app inbox: one row per user and notification. */
export const inbox = notificationSchema.table(
  'inbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    ...notificationContent(),
    readAt: instant('read_at'),
    createdAt: writtenAt('created_at'),
  },
  (table) => [
    check('inbox_importance_check', sql`${table.importance} in ('info', 'warning', 'critical')`),
    index('inbox_user_created_idx').on(table.userId, table.createdAt.desc(), table.id.desc()),
    index('inbox_user_unread_idx')
      .on(table.userId)
      .where(sql`${table.readAt} is null`),
    index('inbox_created_at_idx').on(table.createdAt),
  ],
);

/** What one send call (sendExternal, sendTransactional, a test) asked to deliver. */
export const messages = notificationSchema.table(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<MessageKind>().notNull(),
    ...notificationContent(),
    /** `{kind}:{id}` of the principal that asked; scopes `idempotencyKey`. */
    caller: text('caller').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdAt: writtenAt('created_at'),
  },
  (table) => [
    uniqueIndex('messages_caller_idempotency_idx')
      .on(table.caller, table.idempotencyKey)
      .where(sql`${table.idempotencyKey} is not null`),
  ],
);

/** One attempt at a delivery, kept in the delivery's log. */
export interface AttemptRecord {
  at: string;
  outcome: 'sent' | 'retry' | 'failed' | 'skipped';
  error?: string;
  durationMs?: number;
}

/** One (message, user, strategy): the queue row a worker claims, and afterwards its log. */
export const deliveries = notificationSchema.table(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    strategyId: text('strategy_id').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    /** Sent whatever the user's own `enabled` flag says. */
    transactional: boolean('transactional').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    nextAttemptAt: writtenAt('next_attempt_at'),
    /** While set and in the future, a worker holds the row; lapsed, another may take it over. */
    claimedUntil: instant('claimed_until'),
    claimToken: uuid('claim_token'),
    lastError: text('last_error'),
    skipReason: text('skip_reason'),
    attemptLog: jsonb('attempt_log').$type<AttemptRecord[]>().notNull().default([]),
    createdAt: writtenAt('created_at'),
    updatedAt: writtenAt('updated_at'),
    finishedAt: instant('finished_at'),
  },
  (table) => [
    check(
      'deliveries_status_check',
      sql`${table.status} in ('pending', 'sent', 'failed', 'skipped')`,
    ),
    uniqueIndex('deliveries_message_user_strategy_idx').on(
      table.messageId,
      table.userId,
      table.strategyId,
    ),
    index('deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index('deliveries_created_idx').on(table.createdAt.desc(), table.id.desc()),
    index('deliveries_user_idx').on(table.userId),
    index('deliveries_strategy_idx').on(table.strategyId),
  ],
);

export type SubscriptionEventKind = 'health' | 'incident' | 'maintenance';

/** A user's wish to hear about a system, a group, or everything they can read. */
export const subscriptions = notificationSchema.table(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** Exactly one of systemId and groupId, or neither for everything the user may read. */
    systemId: uuid('system_id'),
    groupId: uuid('group_id'),
    events: text('events').array().$type<SubscriptionEventKind[]>().notNull(),
    createdAt: writtenAt('created_at'),
  },
  (table) => [
    check('subscriptions_one_target', sql`${table.systemId} is null or ${table.groupId} is null`),
    unique('subscriptions_user_target_key')
      .on(table.userId, table.systemId, table.groupId)
      .nullsNotDistinct(),
    index('subscriptions_system_idx').on(table.systemId),
    index('subscriptions_group_idx').on(table.groupId),
  ],
);

/** Domain events a subscriber of this plugin has handled: redelivered ones are ignored. */
export const handledEvents = notificationSchema.table('handled_events', {
  eventId: uuid('event_id').primaryKey(),
  handledAt: writtenAt('handled_at'),
});

/**
 * A started OAuth link (`GET oauth/{strategyId}/auth`): single use, about ten minutes, bound to
 * the user. Only the state's SHA-256 is stored; the PKCE verifier is encrypted.
 */
export const oauthStates = notificationSchema.table(
  'oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: uuid('user_id').notNull(),
    strategyId: text('strategy_id').notNull(),
    codeVerifierCiphertext: text('code_verifier_ciphertext').notNull(),
    /** Relative to the frontend; checked before it is stored. */
    returnPath: text('return_path').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    createdAt: writtenAt('created_at'),
  },
  (table) => [index('oauth_states_expires_idx').on(table.expiresAt)],
);

/** One user's tokens on one `oauth` strategy's platform, encrypted. */
export const oauthTokens = notificationSchema.table(
  'oauth_tokens',
  {
    userId: uuid('user_id').notNull(),
    strategyId: text('strategy_id').notNull(),
    accessTokenCiphertext: text('access_token_ciphertext').notNull(),
    /** Also the compare-and-swap guard of a refresh: a new one replaces it exactly once. */
    refreshTokenCiphertext: text('refresh_token_ciphertext'),
    /** Null when the provider gave no lifetime. */
    expiresAt: instant('expires_at'),
    scopes: text('scopes').array().notNull().default([]),
    /** While in the future, one process is refreshing; the others wait for its result. */
    refreshingUntil: instant('refreshing_until'),
    /** The provider refused the refresh token (`invalid_grant`): the user must link again. */
    needsRelink: boolean('needs_relink').notNull().default(false),
    createdAt: writtenAt('created_at'),
    updatedAt: writtenAt('updated_at'),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.strategyId] }),
    index('oauth_tokens_strategy_idx').on(table.strategyId),
  ],
);
