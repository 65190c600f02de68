import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import type { PageInput } from '@checkline/core/contract';
import { conflict, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder, prepared, uniqueOr } from '@checkline/db';
import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { builtInRoles } from './access.ts';
import { roles, userRoles, users } from './db/schema.ts';
import type { User, UserPage } from './schemas.ts';

type UserRow = typeof users.$inferSelect;

function toUser(row: UserRow, roleIds: string[]): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    roleIds: roleIds.sort(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const emailTaken = (email: string) => conflict(`A user with the e-mail ${email} already exists`);

async function roleIdsByUser(db: Database, userIds: string[]) {
  const byUser = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await db.select().from(userRoles).where(inArray(userRoles.userId, userIds));
  for (const row of rows) byUser.get(row.userId)?.push(row.roleId);
  return byUser;
}

// E-mails are unique, so they alone order users totally, by their unique index.
const userPages = keysetPages('auth.users', keysetOrder([users.email]));

/** A page of users by e-mail. */
export async function listUsers(
  db: Database,
  input: PageInput,
  scope: PageScope,
): Promise<UserPage> {
  const page = await userPages.read(db, users, input, scope, async (rows) => {
    const byUser = await roleIdsByUser(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toUser(row, byUser.get(row.id) ?? []));
  });
  return { users: page.items, nextCursor: page.nextCursor };
}

export async function getUser(db: Database, id: string): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw notFound('User', id);
  const byUser = await roleIdsByUser(db, [id]);
  return toUser(row, byUser.get(id) ?? []);
}

const selectUserByEmail = prepared((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.email, sql.placeholder('email')))
    .prepare('auth_user_by_email'),
);

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await selectUserByEmail(db).execute({ email: email.trim().toLowerCase() });
  return row;
}

/** The user's row with its password hash (for verifying it); undefined when unknown. */
export async function findUserRow(db: Database, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function countUsers(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

export interface NewUser {
  email: string;
  name?: string | undefined;
  passwordHash: string | null;
  roleIds: readonly string[];
}

export async function createUser(db: Database, input: NewUser): Promise<User> {
  const email = input.email.trim().toLowerCase();
  const [row] = await db
    .insert(users)
    .values({ email, name: input.name ?? '', passwordHash: input.passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!row) throw emailTaken(email);
  await setUserRoles(db, row.id, input.roleIds);
  return getUser(db, row.id);
}

export interface UserChanges {
  email?: string | undefined;
  name?: string | undefined;
  passwordHash?: string | undefined;
}

export async function updateUser(db: Database, id: string, changes: UserChanges): Promise<User> {
  const [row] = await uniqueOr(
    () =>
      db
        .update(users)
        .set({
          ...(changes.email !== undefined && { email: changes.email.trim().toLowerCase() }),
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.passwordHash !== undefined && { passwordHash: changes.passwordHash }),
          updatedAt: new Date(),
        })
        .where(eq(users.id, id))
        .returning({ id: users.id }),
    () => emailTaken(changes.email ?? ''),
  );
  if (!row) throw notFound('User', id);
  return getUser(db, id);
}

export async function setUserRoles(db: Database, userId: string, roleIds: readonly string[]) {
  await db.delete(userRoles).where(eq(userRoles.userId, userId));
  const unique = [...new Set(roleIds)];
  if (unique.length)
    await db.insert(userRoles).values(unique.map((roleId) => ({ userId, roleId })));
}

/** Whether some user other than `userId` holds the admin role. */
async function anotherAdminExists(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(roles.name, builtInRoles.admin), ne(userRoles.userId, userId)));
  return (row?.n ?? 0) > 0;
}

/** Someone must always be able to sign in as admin: the last admin user keeps the role. */
export async function assertNotLastAdmin(db: Database, user: User, adminRoleId: string) {
  if (!user.roleIds.includes(adminRoleId)) return;
  // Serialises concurrent demotions, which could otherwise each see the other admin.
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('auth.last_admin'))`);
  if (!(await anotherAdminExists(db, user.id))) {
    throw conflict('This is the last admin user; make another user admin first');
  }
}

export async function deleteUser(db: Database, id: string) {
  const [row] = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  if (!row) throw notFound('User', id);
  return { id: row.id, deleted: true as const };
}
