import type { AlertFacts, SubscriptionKind } from '@checkline/notification-node';
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
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant, writtenAt } from '@checkline/db/columns';

export const notificationSchema = pgSchema('notification');

export type Importance = 'info' | 'warning' | 'critical';
export type DeliveryStatus = 'pending' | 'sent' | 'failed' | 'skipped';
export type MessageKind = 'external' | 'transactional' | 'test';
/** Who a delivery reaches: a person, or an application (through a channel that reaches them). */
export type RecipientKind = 'user' | 'application';

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
    /** A subscription alert's structured facts (versioned); null for other messages. */
    facts: jsonb('facts').$type<AlertFacts>(),
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

/**
 * One (message, recipient, strategy): the queue row a worker claims, and afterwards its log. The
 * recipient is a user or an application (`recipient_kind`); both have random uuids, so `user_id`
 * holds either without the two ever meeting.
 */
export const deliveries = notificationSchema.table(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    /** The recipient's id: a user's, or an application's when `recipientKind` says so. */
    userId: uuid('user_id').notNull(),
    recipientKind: text('recipient_kind').$type<RecipientKind>().notNull().default('user'),
    strategyId: text('strategy_id').notNull(),
    /**
     * The systems the message concerns (none for direct sends): a pending delivery is not sent
     * while an earlier one to the same user and strategy about any of them is still pending.
     */
    systemIds: uuid('system_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
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
    check(
      'deliveries_recipient_kind_check',
      sql`${table.recipientKind} in ('user', 'application')`,
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
    // The claim's look for an earlier pending delivery to the same recipient and channel.
    index('deliveries_pending_recipient_idx')
      .on(table.userId, table.strategyId, table.createdAt)
      .where(sql`${table.status} = 'pending'`),
  ],
);

/** The kinds of event the registered notification sources are heard under. */
export type SubscriptionEventKind = SubscriptionKind;

/**
 * A wish to hear about a system, a group, or everything the recipient can read: a user's own, one
 * an administrator made for a user, a team's (each current member hears, as they may read), or
 * an application's (delivered to the webhook it set, as its own principal may read).
 */
export const subscriptions = notificationSchema.table(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Exactly one of userId, teamId and applicationId: who hears. */
    userId: uuid('user_id'),
    teamId: uuid('team_id'),
    applicationId: uuid('application_id'),
    /** Exactly one of systemId and groupId, or neither for everything the user may read. */
    systemId: uuid('system_id'),
    groupId: uuid('group_id'),
    events: text('events').array().$type<SubscriptionEventKind[]>().notNull(),
    /** Repeat an open alert this often until acknowledged or resolved; null: never (reminders/). */
    remindEverySeconds: integer('remind_every_seconds'),
    /**
     * Tell `escalateToUserId`, or every current member of `escalateToTeamId`, when an alert stays
     * unacknowledged this long; null: never.
     */
    escalateAfterSeconds: integer('escalate_after_seconds'),
    escalateToUserId: uuid('escalate_to_user_id'),
    escalateToTeamId: uuid('escalate_to_team_id'),
    createdAt: writtenAt('created_at'),
  },
  (table) => [
    check(
      'subscriptions_escalation_pair',
      sql`(${table.escalateAfterSeconds} is null) = (${table.escalateToUserId} is null and ${table.escalateToTeamId} is null)`,
    ),
    check(
      'subscriptions_one_escalation_target',
      sql`${table.escalateToUserId} is null or ${table.escalateToTeamId} is null`,
    ),
    check('subscriptions_one_target', sql`${table.systemId} is null or ${table.groupId} is null`),
    check(
      'subscriptions_one_owner',
      sql`num_nonnulls(${table.userId}, ${table.teamId}, ${table.applicationId}) = 1`,
    ),
    // Applications take no reminders or escalation (reminders/ hold people and teams only).
    check(
      'subscriptions_application_no_reminders',
      sql`${table.applicationId} is null or (${table.remindEverySeconds} is null and ${table.escalateAfterSeconds} is null)`,
    ),
    unique('subscriptions_owner_target_key')
      .on(table.userId, table.teamId, table.applicationId, table.systemId, table.groupId)
      .nullsNotDistinct(),
    index('subscriptions_team_idx').on(table.teamId),
    index('subscriptions_application_idx').on(table.applicationId),
    index('subscriptions_system_idx').on(table.systemId),
    index('subscriptions_group_idx').on(table.groupId),
  ],
);

/**
 * An alert a subscriber has not acknowledged yet (see `src/reminders/`): opened when a system turns
 * unhealthy or an incident opens for a subscription with a reminder or an escalation, closed by
 * the recovery or resolution (`resolvedAt`) or by an acknowledgement. Workers of every process
 * claim due rows with `FOR UPDATE SKIP LOCKED` and write the reminder in the same transaction.
 */
export const alerts = notificationSchema.table(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** Who holds it: the subscriber, or (a team's subscription) every current member of the team. */
    userId: uuid('user_id'),
    teamId: uuid('team_id'),
    /** What resolves it: `health:{systemId}` or `incident:{incidentId}`. */
    subject: text('subject').notNull(),
    /** The source's read rule the recipients must still hold when a reminder goes out. */
    sourceRule: text('source_rule').notNull(),
    /** The systems the alert concerns that the subscriber could read when it opened. */
    systemIds: uuid('system_ids').array().notNull(),
    /** The first message's content, repeated by the reminders. */
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    importance: text('importance').$type<Importance>().notNull(),
    facts: jsonb('facts').$type<AlertFacts>(),
    remindEverySeconds: integer('remind_every_seconds'),
    nextReminderAt: instant('next_reminder_at'),
    remindersSent: integer('reminders_sent').notNull().default(0),
    escalateToUserId: uuid('escalate_to_user_id'),
    escalateToTeamId: uuid('escalate_to_team_id'),
    escalateAt: instant('escalate_at'),
    escalatedAt: instant('escalated_at'),
    acknowledgedAt: instant('acknowledged_at'),
    acknowledgedBy: uuid('acknowledged_by'),
    resolvedAt: instant('resolved_at'),
    openedAt: writtenAt('opened_at'),
  },
  (table) => [
    check('alerts_one_holder', sql`(${table.userId} is null) <> (${table.teamId} is null)`),
    uniqueIndex('alerts_open_subject_idx')
      .on(table.subscriptionId, table.subject)
      .where(sql`${table.resolvedAt} is null`),
    index('alerts_subject_idx')
      .on(table.subject)
      .where(sql`${table.resolvedAt} is null`),
    index('alerts_user_idx').on(table.userId, table.openedAt.desc(), table.id.desc()),
    index('alerts_team_idx').on(table.teamId, table.openedAt.desc(), table.id.desc()),
    index('alerts_due_reminder_idx')
      .on(table.nextReminderAt)
      .where(sql`${table.resolvedAt} is null and ${table.acknowledgedAt} is null`),
    index('alerts_due_escalation_idx')
      .on(table.escalateAt)
      .where(
        sql`${table.resolvedAt} is null and ${table.acknowledgedAt} is null and ${table.escalatedAt} is null`,
      ),
  ],
);

/**
 * How each channel's recent send attempts went: consecutive failed attempts since the last
 * success, and when the administrators were told it keeps failing (once, until it recovers).
 */
export const channelHealth = notificationSchema.table('channel_health', {
  strategyId: text('strategy_id').primaryKey(),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  failingSince: instant('failing_since'),
  lastError: text('last_error'),
  /** Set by the one process that reported the failure; cleared by the next success. */
  reportedAt: instant('reported_at'),
  updatedAt: writtenAt('updated_at'),
});

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
