import type { Logger, PluginInitApi } from '@checkline/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAccess } from './access.ts';
import { roleRules } from './db/schema.ts';
import type { AuthTestKit } from './test-support.ts';
import { adminPrincipal, demoAccess, startAuth } from './test-support.ts';

let auth: AuthTestKit;
const admin = adminPrincipal();

beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

/** A logger that keeps its warnings' messages. */
function recordingLogger() {
  const lines: string[] = [];
  const logger = {
    warn: (...args: unknown[]) => lines.push(args.map((arg) => JSON.stringify(arg)).join(' ')),
    info: () => undefined,
    error: () => undefined,
    debug: () => undefined,
    child: () => logger,
  } as unknown as Logger;
  return { logger, lines };
}

const anonymousRole = async (kit = auth) =>
  (await kit.as(admin).getRoles({})).roles.find((role) => role.name === 'anonymous')!;

describe('the anonymous role', () => {
  it('may hold rules that only reads need', async () => {
    const role = await anonymousRole();
    const updated = await auth
      .as(admin)
      .updateRole({ id: role.id, accessRules: [demoAccess.read.id] });
    expect(updated.accessRules).toEqual([demoAccess.read.id]);
    await auth.as(admin).updateRole({ id: role.id, accessRules: [] });
  });

  it('refuses any rule that a change needs, or that no read declares', async () => {
    const role = await anonymousRole();
    for (const rule of [demoAccess.manage.id, authAccess.users.id, authAccess.roles.id]) {
      await expect(
        auth.as(admin).updateRole({ id: role.id, accessRules: [demoAccess.read.id, rule] }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringContaining(`${rule} is not a read rule`),
      });
    }
    expect((await anonymousRole()).accessRules).toEqual([]);
  });

  it('loses change rules it holds in the database when the plugin starts', async () => {
    const role = await anonymousRole();
    await auth.db.insert(roleRules).values([
      { roleId: role.id, rule: demoAccess.manage.id },
      { roleId: role.id, rule: demoAccess.read.id },
    ]);
    const { logger, lines } = recordingLogger();
    // The init phase of a start-up, on the database as a previous version left it.
    await auth.plugin.init!({ db: auth.db, logger } as unknown as PluginInitApi);
    expect((await anonymousRole()).accessRules).toEqual([demoAccess.read.id]);
    expect(lines.join('\n')).toContain(demoAccess.manage.id);
    await auth.db.delete(roleRules).where(eq(roleRules.roleId, role.id));
  });
});

describe('updateResourceAccess', () => {
  it('refuses a resource type no mounted plugin declares', async () => {
    await expect(
      auth.as(admin).updateResourceAccess({
        resourceType: 'demo.nothing',
        resourceId: 'x',
        grants: [],
      }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('Unknown resource type demo.nothing'),
    });
    await expect(
      auth
        .as(admin)
        .updateResourceAccess({ resourceType: 'demo.thing', resourceId: 'x', grants: [] }),
    ).resolves.toMatchObject({ resourceType: 'demo.thing' });
  });
});
