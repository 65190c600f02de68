import type { AccessRuleCatalog } from './access-rule-catalog.ts';
import { builtInRoles } from './access.ts';

/** One rule a principal holds through one of its roles (`rule` null: a role without rules). */
interface RoleRuleRow {
  ownerId: string;
  role: string;
  rule: string | null;
}

/** One team a principal belongs to. */
interface TeamRow {
  ownerId: string | null;
  teamId: string;
}

export interface ProfileAccess {
  isAdmin: boolean;
  /** Every rule of the catalog for an admin; else its roles' rules and the anonymous role's. */
  accessRules: string[];
  teamIds: string[];
}

/**
 * The access of each principal in `rows` (users or applications), as its principal would hold it,
 * from its role rules and team rows. Rows of unknown principals are ignored; lists are sorted.
 */
export function withProfileAccess<Row extends { id: string }>(
  rows: readonly Row[],
  roleRules: readonly RoleRuleRow[],
  teams: readonly TeamRow[],
  anonymousRules: readonly string[],
  catalog: AccessRuleCatalog,
): (Row & ProfileAccess)[] {
  const collected = new Map(
    rows.map((row) => [
      row.id,
      { row, isAdmin: false, rules: new Set(anonymousRules), teamIds: [] as string[] },
    ]),
  );
  for (const { ownerId, role, rule } of roleRules) {
    const profile = collected.get(ownerId);
    if (!profile) continue;
    if (role === builtInRoles.admin) profile.isAdmin = true;
    if (rule !== null) profile.rules.add(rule);
  }
  for (const { ownerId, teamId } of teams) {
    if (ownerId) collected.get(ownerId)?.teamIds.push(teamId);
  }
  return [...collected.values()].map(({ row, isAdmin, rules, teamIds }) => ({
    ...row,
    isAdmin,
    accessRules: isAdmin ? [...catalog.ids()] : [...rules].sort(),
    teamIds: teamIds.sort(),
  }));
}
