import type { Principal } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { prepared } from '@checkline/db';
import { eq, sql } from 'drizzle-orm';
import type { AccessRuleCatalog } from './access-rule-catalog.ts';
import { builtInRoles } from './access.ts';
import { applicationRoles, roleRules, roles, teamMembers, userRoles } from './db/schema.ts';

const selectUserRules = prepared((db) =>
  db
    .select({ role: roles.name, rule: roleRules.rule })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .leftJoin(roleRules, eq(roleRules.roleId, roles.id))
    .where(eq(userRoles.userId, sql.placeholder('id')))
    .prepare('auth_user_rules'),
);

const selectApplicationRules = prepared((db) =>
  db
    .select({ role: roles.name, rule: roleRules.rule })
    .from(applicationRoles)
    .innerJoin(roles, eq(roles.id, applicationRoles.roleId))
    .leftJoin(roleRules, eq(roleRules.roleId, roles.id))
    .where(eq(applicationRoles.applicationId, sql.placeholder('id')))
    .prepare('auth_application_rules'),
);

const selectUserTeams = prepared((db) =>
  db
    .select({ teamId: teamMembers.teamId, manager: teamMembers.manager })
    .from(teamMembers)
    .where(eq(teamMembers.userId, sql.placeholder('id')))
    .prepare('auth_user_teams'),
);

const selectApplicationTeams = prepared((db) =>
  db
    .select({ teamId: teamMembers.teamId, manager: teamMembers.manager })
    .from(teamMembers)
    .where(eq(teamMembers.applicationId, sql.placeholder('id')))
    .prepare('auth_application_teams'),
);

const selectAnonymousRules = prepared((db) =>
  db
    .select({ rule: roleRules.rule })
    .from(roleRules)
    .innerJoin(roles, eq(roles.id, roleRules.roleId))
    .where(eq(roles.name, builtInRoles.anonymous))
    .prepare('auth_anonymous_rules'),
);

/** The rules of the `anonymous` role: open to every caller, with or without credentials. */
export async function loadAnonymousRules(db: Database): Promise<string[]> {
  const rows = await selectAnonymousRules(db).execute();
  return rows.map((row) => row.rule).sort();
}

export interface RoleGrants {
  isAdmin: boolean;
  /** The rules its roles hold (not the anonymous role's, which everyone holds). */
  rules: string[];
}

/** What a user's or application's roles give it; nothing for an unknown id. */
export async function loadRoleGrants(
  db: Database,
  kind: 'user' | 'application',
  id: string,
): Promise<RoleGrants> {
  const rows = await (kind === 'user' ? selectUserRules : selectApplicationRules)(db).execute({
    id,
  });
  const rules = new Set<string>();
  for (const row of rows) if (row.rule !== null) rules.add(row.rule);
  return {
    isAdmin: rows.some((row) => row.role === builtInRoles.admin),
    rules: [...rules].sort(),
  };
}

export interface Membership {
  teamId: string;
  manager: boolean;
}

/** The teams a user or application is a member of, and whether it manages each. */
export async function loadMemberships(
  db: Database,
  kind: 'user' | 'application',
  id: string,
): Promise<Membership[]> {
  return (kind === 'user' ? selectUserTeams : selectApplicationTeams)(db).execute({ id });
}

/**
 * A user's or application's principal: the rules of its roles plus the anonymous role's (what
 * anyone may do, a signed-in caller may do too), its teams, and whether it is an admin.
 */
export async function loadPrincipal(
  db: Database,
  kind: 'user' | 'application',
  id: string,
  catalog: AccessRuleCatalog,
  anonymousRules: readonly string[],
): Promise<Principal> {
  const [grants, teams] = await Promise.all([
    loadRoleGrants(db, kind, id),
    loadMemberships(db, kind, id),
  ]);
  const { isAdmin } = grants;
  const rules = new Set<string>([...anonymousRules, ...grants.rules]);
  return {
    kind,
    id,
    accessRules: isAdmin ? catalog.ids() : [...rules].sort(),
    teamIds: teams.map((team) => team.teamId).sort(),
    isAdmin,
  };
}
