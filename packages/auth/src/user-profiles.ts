import type { Database } from '@checkline/db';
import { eq, inArray } from 'drizzle-orm';
import type { AccessRuleCatalog } from './access-rule-catalog.ts';
import { builtInRoles } from './access.ts';
import { identities, roleRules, roles, teamMembers, userRoles, users } from './db/schema.ts';
import { loadAnonymousRules } from './principals.ts';
import type { UserProfile } from './schemas.ts';

/**
 * What other plugins need to address users: e-mail, name, the rules they hold as their principal
 * would, teams and sign-in identities. Five queries whatever the number of users; unknown ids are
 * left out.
 */
export async function loadUserProfiles(
  db: Database,
  userIds: readonly string[],
  catalog: AccessRuleCatalog,
): Promise<UserProfile[]> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  const [userRows, ruleRows, teamRows, identityRows, anonymousRules] = await Promise.all([
    db
      .select({ id: users.id, email: users.email, name: users.name })
      .from(users)
      .where(inArray(users.id, ids)),
    db
      .select({ userId: userRoles.userId, role: roles.name, rule: roleRules.rule })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .leftJoin(roleRules, eq(roleRules.roleId, roles.id))
      .where(inArray(userRoles.userId, ids)),
    db
      .select({ userId: teamMembers.userId, teamId: teamMembers.teamId })
      .from(teamMembers)
      .where(inArray(teamMembers.userId, ids)),
    db
      .select({
        userId: identities.userId,
        provider: identities.provider,
        email: identities.email,
      })
      .from(identities)
      .where(inArray(identities.userId, ids))
      .orderBy(identities.createdAt, identities.id),
    loadAnonymousRules(db),
  ]);
  const profiles = new Map(
    userRows.map((row) => [
      row.id,
      {
        ...row,
        isAdmin: false,
        rules: new Set(anonymousRules),
        teamIds: [] as string[],
        identities: [] as UserProfile['identities'],
      },
    ]),
  );
  for (const row of ruleRows) {
    const profile = profiles.get(row.userId);
    if (!profile) continue;
    if (row.role === builtInRoles.admin) profile.isAdmin = true;
    if (row.rule !== null) profile.rules.add(row.rule);
  }
  for (const row of teamRows) if (row.userId) profiles.get(row.userId)?.teamIds.push(row.teamId);
  for (const row of identityRows) {
    profiles.get(row.userId)?.identities.push({ provider: row.provider, email: row.email });
  }
  return [...profiles.values()].map(({ rules, ...profile }) => ({
    ...profile,
    accessRules: profile.isAdmin ? [...catalog.ids()] : [...rules].sort(),
    teamIds: profile.teamIds.sort(),
  }));
}
