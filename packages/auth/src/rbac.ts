import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import type { PageInput, Principal } from '@checkline/core/contract';
import { appError, badRequest, conflict, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder, uniqueOr } from '@checkline/db';
import { eq, inArray } from 'drizzle-orm';
import type { AccessRuleCatalog } from './access-rule-catalog.ts';
import type { BuiltInRole } from './access.ts';
import { builtInRoles } from './access.ts';
import { roleRules, roles } from './db/schema.ts';
import type { CreateRoleInput, Role, RolePage, UpdateRoleInput } from './schemas.ts';

type RoleRow = typeof roles.$inferSelect;

const builtInDescriptions: Record<BuiltInRole, string> = {
  admin: 'Every access rule of every plugin, and past every team-only restriction',
  users: 'Given to every new user',
  applications: 'Given to every new external application',
  subscriber: 'What a person needs to subscribe to alerts and receive them through the channels',
  anonymous: 'Open to callers without credentials',
};

/**
 * Creates the built-in roles that do not exist yet, the `subscriber` role holding the rules marked
 * for it (only when created: administrators may change it afterwards); safe on every start.
 */
export async function ensureBuiltInRoles(db: Database, catalog: AccessRuleCatalog): Promise<void> {
  const created = await db
    .insert(roles)
    .values(
      (Object.keys(builtInRoles) as BuiltInRole[]).map((key) => ({
        name: builtInRoles[key],
        description: builtInDescriptions[key],
        builtIn: true,
      })),
    )
    .onConflictDoNothing({ target: roles.name })
    .returning({ id: roles.id, name: roles.name });
  const subscriber = created.find((role) => role.name === builtInRoles.subscriber);
  const rules = catalog.list().filter((rule) => rule.subscriber);
  if (subscriber && rules.length > 0) {
    await db
      .insert(roleRules)
      .values(rules.map((rule) => ({ roleId: subscriber.id, rule: rule.id })));
  }
}

export async function builtInRoleId(db: Database, role: BuiltInRole): Promise<string> {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(eq(roles.name, builtInRoles[role]));
  if (!row) throw new Error(`Built-in role ${role} is missing; did the auth plugin start?`);
  return row.id;
}

function toRole(row: RoleRow, rules: string[], catalog: AccessRuleCatalog): Role {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    builtIn: row.builtIn,
    accessRules: row.name === builtInRoles.admin ? [...catalog.ids()] : rules.sort(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function rulesByRole(db: Database, roleIds: string[]): Promise<Map<string, string[]>> {
  const byRole = new Map<string, string[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return byRole;
  const rows = await db.select().from(roleRules).where(inArray(roleRules.roleId, roleIds));
  for (const row of rows) byRole.get(row.roleId)?.push(row.rule);
  return byRole;
}

// Names are unique, so they alone order roles totally, by their unique index.
const rolePages = keysetPages('auth.roles', keysetOrder([roles.name]));

/** A page of roles by name. */
export async function listRoles(
  db: Database,
  catalog: AccessRuleCatalog,
  input: PageInput,
  scope: PageScope,
): Promise<RolePage> {
  const page = await rolePages.read(db, roles, input, scope, async (rows) => {
    const rules = await rulesByRole(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toRole(row, rules.get(row.id) ?? [], catalog));
  });
  return { roles: page.items, nextCursor: page.nextCursor };
}

/** The roles with these ids; NOT_FOUND names the first that does not exist. */
async function rolesByIds(
  db: Database,
  ids: readonly string[],
  catalog: AccessRuleCatalog,
): Promise<Role[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db.select().from(roles).where(inArray(roles.id, unique));
  const missing = unique.find((id) => !rows.some((row) => row.id === id));
  if (missing) throw notFound('Role', missing);
  const rules = await rulesByRole(db, unique);
  return rows.map((row) => toRole(row, rules.get(row.id) ?? [], catalog));
}

export async function getRole(db: Database, id: string, catalog: AccessRuleCatalog) {
  const [role] = await rolesByIds(db, [id], catalog);
  return role!;
}

function assertKnownRules(rules: readonly string[], catalog: AccessRuleCatalog) {
  const unknown = rules.find((rule) => !catalog.has(rule));
  if (unknown) throw badRequest(`Unknown access rule ${unknown}`);
}

/**
 * Refuses to let a caller hand out access it does not hold itself: only admins give the `admin`
 * role, and a role's rules must all be the caller's own.
 */
export function assertMayGrant(principal: Principal, rolesToGrant: readonly Role[]) {
  if (principal.isAdmin) return;
  for (const role of rolesToGrant) {
    const foreign =
      role.name === builtInRoles.admin
        ? 'admin'
        : role.accessRules.find((rule) => !principal.accessRules.includes(rule));
    if (foreign) {
      throw appError(
        'FORBIDDEN',
        `You cannot grant the role ${role.name}: it holds ${foreign}, which you do not hold`,
      );
    }
  }
}

/**
 * Refuses a change of a user's or application's roles from `current` to `next` that hands out
 * (or takes away) a role the caller could not grant; answers the names of the roles that change.
 */
export async function assertMayChangeRoles(
  db: Database,
  principal: Principal,
  current: readonly string[],
  next: readonly string[],
  catalog: AccessRuleCatalog,
): Promise<string[]> {
  const changed = [
    ...next.filter((id) => !current.includes(id)),
    ...current.filter((id) => !next.includes(id)),
  ];
  const touched = await rolesByIds(db, changed, catalog);
  assertMayGrant(principal, touched);
  return touched.map((role) => role.name);
}

/** Same rule for the rules of a role being written. */
export function assertMayGrantRules(principal: Principal, rules: readonly string[]) {
  if (principal.isAdmin) return;
  const foreign = rules.find((rule) => !principal.accessRules.includes(rule));
  if (foreign) {
    throw appError('FORBIDDEN', `You cannot grant ${foreign}, which you do not hold`);
  }
}

const nameTaken = (name: string) => conflict(`A role named "${name}" already exists`);

async function replaceRules(db: Database, roleId: string, rules: readonly string[]) {
  await db.delete(roleRules).where(eq(roleRules.roleId, roleId));
  const unique = [...new Set(rules)];
  if (unique.length) await db.insert(roleRules).values(unique.map((rule) => ({ roleId, rule })));
}

export async function createRole(
  db: Database,
  input: CreateRoleInput,
  catalog: AccessRuleCatalog,
): Promise<Role> {
  assertKnownRules(input.accessRules, catalog);
  const [row] = await db
    .insert(roles)
    .values({ name: input.name, description: input.description ?? '' })
    .onConflictDoNothing({ target: roles.name })
    .returning();
  if (!row) throw nameTaken(input.name);
  await replaceRules(db, row.id, input.accessRules);
  return getRole(db, row.id, catalog);
}

export async function updateRole(
  db: Database,
  input: UpdateRoleInput,
  catalog: AccessRuleCatalog,
): Promise<Role> {
  const current = await getRole(db, input.id, catalog);
  if (current.builtIn && input.name !== undefined && input.name !== current.name) {
    throw conflict(`The built-in role ${current.name} cannot be renamed`);
  }
  if (current.name === builtInRoles.admin && input.accessRules !== undefined) {
    throw conflict('The admin role holds every access rule; it cannot be narrowed');
  }
  if (input.accessRules) assertKnownRules(input.accessRules, catalog);
  await uniqueOr(
    () =>
      db
        .update(roles)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.description !== undefined && { description: input.description }),
          updatedAt: new Date(),
        })
        .where(eq(roles.id, input.id)),
    () => nameTaken(input.name ?? ''),
  );
  if (input.accessRules) await replaceRules(db, input.id, input.accessRules);
  return getRole(db, input.id, catalog);
}

export async function deleteRole(db: Database, id: string, catalog: AccessRuleCatalog) {
  const role = await getRole(db, id, catalog);
  if (role.builtIn) throw conflict(`The built-in role ${role.name} cannot be deleted`);
  await db.delete(roles).where(eq(roles.id, id));
  return { id, deleted: true as const };
}
