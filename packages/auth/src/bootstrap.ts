import type { Logger } from '@checkline/core';
import type { Database } from '@checkline/db';
import { sql } from 'drizzle-orm';
import type { AccessRuleCatalog } from './access-rule-catalog.ts';
import { randomBase62 } from './api-key.ts';
import { hashPassword } from './password.ts';
import { passwordProblem } from './password-policy.ts';
import { builtInRoleId, ensureBuiltInRoles } from './rbac.ts';
import { countUsers, createUser } from './users.ts';

export interface BootstrapAdmin {
  email: string;
  password: string | undefined;
}

/**
 * Creates the built-in roles and, on a database without users, the first admin. A generated
 * password is written to the log once: the only place a secret is ever logged.
 */
export async function bootstrap(
  db: Database,
  admin: BootstrapAdmin,
  logger: Logger,
  catalog: AccessRuleCatalog,
) {
  const problem = admin.password === undefined ? undefined : passwordProblem(admin.password);
  const created = await db.transaction(async (tx) => {
    // Several processes starting on one empty database must create one admin, not several.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('auth.bootstrap'))`);
    await ensureBuiltInRoles(tx, catalog);
    if ((await countUsers(tx)) > 0) return undefined;
    // Only an empty database takes ADMIN_PASSWORD, so only then can a weak one do harm.
    if (problem) throw new Error(`ADMIN_PASSWORD is not acceptable: ${problem}`);
    const password = admin.password ?? randomBase62(24);
    await createUser(tx, {
      email: admin.email,
      name: 'Administrator',
      passwordHash: await hashPassword(password),
      roleIds: [await builtInRoleId(tx, 'admin'), await builtInRoleId(tx, 'users')],
    });
    return { generatedPassword: admin.password ? undefined : password };
  });
  if (!created) return;
  if (created.generatedPassword === undefined) {
    logger.info({ email: admin.email }, 'created the first admin user from ADMIN_EMAIL');
    return;
  }
  logger.warn(
    { email: admin.email },
    `created the first admin user ${admin.email} with the generated password ` +
      `${created.generatedPassword} (shown once); sign in and change it`,
  );
}
