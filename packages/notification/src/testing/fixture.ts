import { loopbackEgress } from '@checkline/notification-node/testing';
import { randomUUID } from 'node:crypto';
import { createAuthPlugin } from '@checkline/auth';
import type { Principal } from '@checkline/core';
import { startPluginHarness } from '@checkline/core/testing';
import type { Database, DatabaseHandle } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { notificationAccess } from '../access.ts';
import { notificationContract } from '../contract.ts';
import { inbox } from '../db/schema.ts';
import type { DeliverySettings } from '../delivery/settings.ts';
import type { NotificationInput } from '../inbox/schemas.ts';
import { createNotificationPlugin } from '../plugin.ts';
import type { NotificationOptions } from '../state.ts';
import type { NotificationStrategy } from '@checkline/notification-node';
import { testChannelPlugin } from './channel-plugin.ts';
import { writeStrategySettings, writeUserChannel } from './settings-rows.ts';

export const CHANNEL_PLUGIN = 'test-channel';

/** The migrations an inbox test database needs: notification's only. */
export function inboxMigrations() {
  return [{ pluginId: 'notification', folder: createNotificationPlugin().migrationsFolder! }];
}

/**
 * This test file's database with notification's tables, created before its tests and closed
 * after them, its inbox emptied before each test. Read `db` inside tests, not at import.
 */
export function inboxDatabaseForTests(): { readonly db: Database } {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await createTestDatabase(inboxMigrations());
  });
  afterAll(() => handle?.close());
  beforeEach(async () => {
    await handle!.db.delete(inbox);
  });
  return {
    get db() {
      if (!handle) throw new Error('The inbox test database is not created yet');
      return handle.db;
    },
  };
}

/** The migrations a delivery test database needs: auth's (users, roles) and notification's. */
export function deliveryMigrations() {
  const auth = createAuthPlugin({ baseUrl: 'http://localhost:3000' });
  return [{ pluginId: 'auth', folder: auth.migrationsFolder! }, ...inboxMigrations()];
}

/** A plain in-app notification titled `title`. */
export const note = (title: string): NotificationInput => ({
  title,
  type: 'test.note',
  importance: 'info',
});

/**
 * One "server process" for delivery tests: auth, notification and a channel plugin registering
 * `strategies`, brought up on `db` as the server does (the worker does not tick on its own unless
 * `delivery.autoStart` is true).
 */
export async function startDeliveryProcess(
  db: Database,
  strategies: readonly NotificationStrategy[],
  delivery: DeliverySettings = {},
  /** The rest of the plugin's settings (processes sharing a database share a keyring). */
  options: Omit<NotificationOptions, 'delivery'> = {},
) {
  const auth = createAuthPlugin({
    baseUrl: 'http://localhost:3000',
    admin: { email: 'admin@example.com', password: 'correct horse battery staple' },
    accessRules: Object.values(notificationAccess),
    contracts: [notificationContract],
  });
  const notification = createNotificationPlugin({
    // The OAuth providers tests start listen on loopback.
    egress: loopbackEgress(),
    ...options,
    delivery: { autoStart: false, ...delivery },
  });
  const harness = await startPluginHarness(
    [auth, notification, testChannelPlugin(CHANNEL_PLUGIN, strategies)],
    db,
  );
  return {
    notification: (principal: Principal) =>
      harness.client('notification', notificationContract, principal),
    worker: () => notification.deliveryWorker(),
    state: notification.state,
    /** A request context of `principal` on the root database, as background work gets. */
    contextFor: (principal: Principal) => harness.runtime.contextFor(principal),
    stop: () => harness.stop(),
  };
}

export type DeliveryProcess = Awaited<ReturnType<typeof startDeliveryProcess>>;

/** `{plugin}.{id}` of a test channel strategy, and the rule to use it. */
export const qualified = (id: string) => `${CHANNEL_PLUGIN}.${id}`;
export const useRule = (id: string) => `${CHANNEL_PLUGIN}.strategy.${id}.use`;

/** A role of its own straight in auth's tables, holding `rules`. */
async function createRoleHolding(db: Database, rules: readonly string[]): Promise<{ id: string }> {
  const [role] = await queryRows<{ id: string }>(
    db,
    sql`insert into auth.roles (name) values (${`role-${randomUUID()}`}) returning id`,
  );
  for (const rule of rules) {
    await db.execute(
      sql`insert into auth.role_rules (role_id, rule) values (${role!.id}, ${rule})`,
    );
  }
  return role!;
}

/**
 * Users straight in auth's tables (fast, no password hashing): each with a role of its own
 * holding `rules`. Answers their ids in order.
 */
export async function createUsers(
  db: Database,
  emails: readonly string[],
  rules: readonly string[],
): Promise<string[]> {
  if (emails.length === 0) return [];
  const role = await createRoleHolding(db, rules);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
    insert into auth.users (email)
    select email from unnest(${sql.param([...emails])}::text[]) with ordinality as t(email, position)
    order by position returning id`,
  );
  const ids = rows.map((row) => row.id);
  await db.execute(sql`insert into auth.user_roles (user_id, role_id)
    select id, ${role.id}::uuid from unnest(${sql.param(ids)}::uuid[]) as t(id)`);
  return ids;
}

/**
 * Applications straight in auth's tables (no usable key: the hash is of nothing): each with a
 * role of its own holding `rules`. Answers their ids in order.
 */
export async function createApplications(
  db: Database,
  names: readonly string[],
  rules: readonly string[],
): Promise<string[]> {
  const role = await createRoleHolding(db, rules);
  const ids: string[] = [];
  for (const name of names) {
    const id = randomUUID();
    await db.execute(
      sql`insert into auth.applications (id, name, secret_hash) values (${id}, ${name}, 'none')`,
    );
    await db.execute(
      sql`insert into auth.application_roles (application_id, role_id) values (${id}, ${role.id})`,
    );
    ids.push(id);
  }
  return ids;
}

/** An administrator's settings of a test channel strategy, as plain JSON. */
export const configureStrategy = (
  db: Database,
  id: string,
  settings: Parameters<typeof writeStrategySettings>[2] = {},
) => writeStrategySettings(db, qualified(id), settings);

/** A user's own settings of a test channel strategy. */
export const setPreference = (
  db: Database,
  userId: string,
  id: string,
  preference: Parameters<typeof writeUserChannel>[3],
) => writeUserChannel(db, userId, qualified(id), preference);

/**
 * A test file's database (auth's and notification's tables) with one delivery process on it
 * running `strategies`, each configured by an administrator (`settingsOf` its settings).
 * `close` stops the process, then the database.
 */
export async function startDeliveryFixture(
  strategies: readonly NotificationStrategy[],
  options: {
    delivery?: DeliverySettings;
    settingsOf?: (strategyId: string) => Parameters<typeof configureStrategy>[2];
  } = {},
) {
  const database = await createTestDatabase(deliveryMigrations());
  let server: DeliveryProcess | undefined;
  try {
    server = await startDeliveryProcess(database.db, strategies, options.delivery);
    for (const strategy of strategies) {
      await configureStrategy(database.db, strategy.id, options.settingsOf?.(strategy.id));
    }
  } catch (error) {
    await server?.stop();
    await database.close();
    throw error;
  }
  const started = server;
  return {
    database,
    server: started,
    close: async () => {
      await started.stop();
      await database.close();
    },
  };
}
