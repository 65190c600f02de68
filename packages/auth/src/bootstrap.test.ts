import { silentLogger } from '@checkline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccessRuleCatalog } from './access-rule-catalog.ts';
import { bootstrap } from './bootstrap.ts';
import { roleRules, roles, users } from './db/schema.ts';
import type { AuthTestKit } from './test-support.ts';
import { startAuth } from './test-support.ts';

let auth: AuthTestKit;
const catalog = new AccessRuleCatalog();

beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

describe('bootstrap', () => {
  it('refuses to create the first admin with a weak ADMIN_PASSWORD, and creates nobody', async () => {
    await auth.db.delete(users);
    for (const password of ['short', 'password1234']) {
      await expect(
        bootstrap(auth.db, { email: 'first@example.com', password }, silentLogger, catalog),
      ).rejects.toThrow(/ADMIN_PASSWORD is not acceptable/);
    }
    expect(await auth.db.select().from(users)).toEqual([]);
    await bootstrap(
      auth.db,
      { email: 'first@example.com', password: 'a sound admin password' },
      silentLogger,
      catalog,
    );
    expect((await auth.db.select().from(users)).map((user) => user.email)).toEqual([
      'first@example.com',
    ]);
  });

  it('takes any ADMIN_PASSWORD once users exist, since it is not used then', async () => {
    await expect(
      bootstrap(auth.db, { email: 'other@example.com', password: 'short' }, silentLogger, catalog),
    ).resolves.toBeUndefined();
  });

  it('creates the subscriber role holding the rules marked for it, once: later changes stay', async () => {
    const rulesOfSubscriber = async () =>
      (
        await auth.db
          .select({ rule: roleRules.rule })
          .from(roleRules)
          .innerJoin(roles, eq(roles.id, roleRules.roleId))
          .where(eq(roles.name, 'subscriber'))
      )
        .map((row) => row.rule)
        .sort();
    await auth.db.delete(roles).where(eq(roles.name, 'subscriber'));
    const marked = new AccessRuleCatalog([
      { id: 'demo.demo.read', pluginId: 'demo', description: 'read', subscriber: true },
      { id: 'demo.demo.manage', pluginId: 'demo', description: 'manage' },
    ]);
    const admin = { email: 'first@example.com', password: undefined };
    await bootstrap(auth.db, admin, silentLogger, marked);
    expect(await rulesOfSubscriber()).toEqual(['demo.demo.read']);

    await auth.db.delete(roleRules).where(eq(roleRules.rule, 'demo.demo.read'));
    await bootstrap(auth.db, admin, silentLogger, marked);
    expect(await rulesOfSubscriber()).toEqual([]);
  });
});
