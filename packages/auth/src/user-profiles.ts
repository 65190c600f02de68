import type { Database } from '@checkline/db';
import { eq, inArray } from 'drizzle-orm';
import type { AccessRuleCatalog } from './access-rule-catalog.ts';
import { identities, roleRules, roles, teamMembers, userRoles, users } from './db/schema.ts';
import { loadAnonymousRules } from './principals.ts';
import { withProfileAccess } from './profile-access.ts';
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
      .select({ ownerId: userRoles.userId, role: roles.name, rule: roleRules.rule })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .leftJoin(roleRules, eq(roleRules.roleId, roles.id))
      .where(inArray(userRoles.userId, ids)),
    db
      .select({ ownerId: teamMembers.userId, teamId: teamMembers.teamId })
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
  const identitiesOf = new Map<string, UserProfile['identities']>();
  for (const { userId, provider, email } of identityRows) {
    identitiesOf.set(userId, [...(identitiesOf.get(userId) ?? []), { provider, email }]);
  }
  return withProfileAccess(userRows, ruleRows, teamRows, anonymousRules, catalog).map(
    (profile) => ({ ...profile, identities: identitiesOf.get(profile.id) ?? [] }),
  );
}
