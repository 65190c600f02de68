import type { Database } from '@checkline/db';
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { AccessRuleCatalog } from './access-rule-catalog.ts';
import { applicationRoles, applications, roleRules, roles, teamMembers } from './db/schema.ts';
import { loadAnonymousRules } from './principals.ts';
import { withProfileAccess } from './profile-access.ts';
import type { ApplicationProfile } from './schemas.ts';

/**
 * What other plugins need to address applications (a webhook subscription): name, the rules they
 * hold as their principal would, and teams. Four queries whatever the number; unknown ids and
 * applications whose key has expired (they can no longer call, so they hear nothing) are left out.
 */
export async function loadApplicationProfiles(
  db: Database,
  applicationIds: readonly string[],
  catalog: AccessRuleCatalog,
): Promise<ApplicationProfile[]> {
  const ids = [...new Set(applicationIds)];
  if (ids.length === 0) return [];
  const [applicationRows, ruleRows, teamRows, anonymousRules] = await Promise.all([
    db
      .select({ id: applications.id, name: applications.name })
      .from(applications)
      .where(
        and(
          inArray(applications.id, ids),
          or(isNull(applications.expiresAt), gt(applications.expiresAt, sql`now()`)),
        ),
      ),
    db
      .select({
        ownerId: applicationRoles.applicationId,
        role: roles.name,
        rule: roleRules.rule,
      })
      .from(applicationRoles)
      .innerJoin(roles, eq(roles.id, applicationRoles.roleId))
      .leftJoin(roleRules, eq(roleRules.roleId, roles.id))
      .where(inArray(applicationRoles.applicationId, ids)),
    db
      .select({ ownerId: teamMembers.applicationId, teamId: teamMembers.teamId })
      .from(teamMembers)
      .where(inArray(teamMembers.applicationId, ids)),
    loadAnonymousRules(db),
  ]);
  return withProfileAccess(applicationRows, ruleRows, teamRows, anonymousRules, catalog);
}
