import { randomUUID } from 'node:crypto';
import { createAuthPlugin } from '@checkline/auth';
import type { AnyPlugin, Principal } from '@checkline/core';
import { startPluginHarness } from '@checkline/core/testing';
import type { Database, DatabaseHandle } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { notificationAccess } from '../access.ts';
import { notificationContract } from '../contract.ts';
import { createNotificationPlugin } from '../plugin.ts';
import type { NotificationStrategy } from '../strategies/strategy.ts';
import { testChannelPlugin } from '../testing/channel-plugin.ts';
import { writeStrategySettings, writeUserChannel } from '../testing/settings-rows.ts';
import type { DeliverySettings } from './settings.ts';

export const CHANNEL_PLUGIN = 'test-channel';

/** The migrations a delivery test database needs: auth's and notification's. */
export function deliveryMigrations() {
  const auth = createAuthPlugin({ baseUrl: 'http://localhost:3000' });
  const notification = createNotificationPlugin();
  return [
    { pluginId: 'auth', folder: auth.migrationsFolder! },
    { pluginId: 'notification', folder: notification.migrationsFolder! },
  ];
}

/**
 * One "server process" for delivery tests: auth, notification and a channel plugin registering
 * `strategies`, brought up on `db` as the server does (the worker does not tick on its own unless
 * `delivery.autoStart` is true).
 */
export async function startDeliveryProcess(
  db: Database,
  strategies: readonly NotificationStrategy[],
  delivery: DeliverySettings = {},
) {
  const auth = createAuthPlugin({
    baseUrl: 'http://localhost:3000',
    admin: { email: 'admin@example.com', password: 'correct horse battery staple' },
    accessRules: Object.values(notificationAccess),
    contracts: [notificationContract],
  });
  const notification = createNotificationPlugin({ delivery: { autoStart: false, ...delivery } });
  const harness = await startPluginHarness(
    [
      auth as unknown as AnyPlugin,
      notification as unknown as AnyPlugin,
      testChannelPlugin(CHANNEL_PLUGIN, strategies),
    ],
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
  const roleName = `role-${randomUUID()}`;
  const [role] = await queryRows<{ id: string }>(
    db,
    sql`insert into auth.roles (name) values (${roleName}) returning id`,
  );
  for (const rule of rules) {
    await db.execute(
      sql`insert into auth.role_rules (role_id, rule) values (${role!.id}, ${rule})`,
    );
  }
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
    insert into auth.users (email)
    select email from unnest(${sql.param([...emails])}::text[]) with ordinality as t(email, position)
    order by position returning id`,
  );
  const ids = rows.map((row) => row.id);
  await db.execute(sql`insert into auth.user_roles (user_id, role_id)
    select id, ${role!.id}::uuid from unnest(${sql.param(ids)}::uuid[]) as t(id)`);
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

export type { DatabaseHandle };
