import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant } from '@checkline/db/columns';

export const authSchema = pgSchema('auth');

const timestamps = {
  createdAt: instant('created_at').notNull().defaultNow(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
};

export const users = authSchema.table('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Stored lower-cased, so uniqueness ignores case. */
  email: text('email').notNull().unique(),
  name: text('name').notNull().default(''),
  /** `scrypt$N$r$p$salt$hash`; null for users that only sign in through another strategy. */
  passwordHash: text('password_hash'),
  ...timestamps,
});

/** A sign-in identity a strategy established for a user: who the provider says they are. */
export const identities = authSchema.table(
  'identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The sign-in strategy or login provider (`github`, `custom`, ...). */
    provider: text('provider').notNull(),
    /** The provider's stable id of the account. */
    subject: text('subject').notNull(),
    /** The e-mail the provider holds for the account, when it gives one. */
    email: text('email'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('identities_provider_subject_idx').on(table.provider, table.subject),
    index('identities_user_id_idx').on(table.userId),
  ],
);

/**
 * A sign-in through a login provider that has started and not yet come back: single use, short
 * lived. The browser holds the state in a cookie as well, so a callback only completes in the
 * browser that started it.
 */
export const loginStates = authSchema.table(
  'login_states',
  {
    /** SHA-256 of the `state` sent to the provider; the state itself is never stored. */
    stateHash: text('state_hash').primaryKey(),
    /** The strategy that started it. */
    provider: text('provider').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    /** A path on the frontend, checked relative when stored. */
    returnTo: text('return_to').notNull(),
    expiresAt: instant('expires_at').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (table) => [index('login_states_expires_at_idx').on(table.expiresAt)],
);

export const sessions = authSchema.table(
  'sessions',
  {
    /** SHA-256 of the opaque token; the token itself is only ever in the cookie. */
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: instant('expires_at').notNull(),
    renewedAt: instant('renewed_at').notNull().defaultNow(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('sessions_user_id_idx').on(table.userId),
    index('sessions_expires_at_idx').on(table.expiresAt),
  ],
);

export const applications = authSchema.table('applications', {
  /** Generated in code: the secret embeds it, and its hash covers it. */
  id: uuid('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  /** SHA-256 (hex) of the whole key `ck_{id}_{secret}`. */
  secretHash: text('secret_hash').notNull(),
  /** The key replaced by the last rotation, accepted until `previousSecretExpiresAt`. */
  previousSecretHash: text('previous_secret_hash'),
  previousSecretExpiresAt: instant('previous_secret_expires_at'),
  expiresAt: instant('expires_at'),
  lastUsedAt: instant('last_used_at'),
  ...timestamps,
});

export const roles = authSchema.table('roles', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  builtIn: boolean('built_in').notNull().default(false),
  ...timestamps,
});

export const roleRules = authSchema.table(
  'role_rules',
  {
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    rule: text('rule').notNull(),
  },
  (table) => [primaryKey({ columns: [table.roleId, table.rule] })],
);

export const userRoles = authSchema.table(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.roleId] })],
);

export const applicationRoles = authSchema.table(
  'application_roles',
  {
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.roleId] })],
);

export const teams = authSchema.table('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  ...timestamps,
});

export const teamMembers = authSchema.table(
  'team_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    applicationId: uuid('application_id').references(() => applications.id, {
      onDelete: 'cascade',
    }),
    /** Managers may change the team without holding `auth.teams.manage`. */
    manager: boolean('manager').notNull().default(false),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('team_members_team_user_idx').on(table.teamId, table.userId),
    uniqueIndex('team_members_team_application_idx').on(table.teamId, table.applicationId),
    index('team_members_user_idx').on(table.userId),
    index('team_members_application_idx').on(table.applicationId),
    check(
      'team_members_one_member',
      sql`(${table.userId} is null) <> (${table.applicationId} is null)`,
    ),
  ],
);

/** Resources that carry team grants or the team-only flag; every other resource has neither. */
export const resourceSettings = authSchema.table(
  'resource_settings',
  {
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    teamOnly: boolean('team_only').notNull().default(false),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.resourceType, table.resourceId] })],
);

export const resourceGrants = authSchema.table(
  'resource_grants',
  {
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    access: text('access', { enum: ['read', 'manage'] }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.resourceType, table.resourceId, table.teamId] }),
    index('resource_grants_team_idx').on(table.teamId),
  ],
);

export const settings = authSchema.table('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

export const auditLog = authSchema.table(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: instant('at').notNull().defaultNow(),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [index('audit_log_at_idx').on(table.at)],
);
