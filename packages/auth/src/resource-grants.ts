import { notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { and, asc, eq } from 'drizzle-orm';
import { resourceGrants, resourceSettings } from './db/schema.ts';
import type {
  Grant,
  ResourceAccessSettings,
  ResourceRefInput,
  UpdateResourceAccessInput,
} from './schemas.ts';
import { missingTeamIds } from './teams.ts';

export interface ResourceEntry {
  teamOnly: boolean;
  grants: Grant[];
}

/** Every resource of `type` that carries grants or the team-only flag. */
export async function loadResourceEntries(
  db: Database,
  type: string,
): Promise<Map<string, ResourceEntry>> {
  const [flags, grants] = await Promise.all([
    db
      .select({ id: resourceSettings.resourceId, teamOnly: resourceSettings.teamOnly })
      .from(resourceSettings)
      .where(eq(resourceSettings.resourceType, type)),
    db
      .select({
        id: resourceGrants.resourceId,
        teamId: resourceGrants.teamId,
        access: resourceGrants.access,
      })
      .from(resourceGrants)
      .where(eq(resourceGrants.resourceType, type)),
  ]);
  const entries = new Map<string, ResourceEntry>();
  const entry = (id: string) => {
    let found = entries.get(id);
    if (!found) entries.set(id, (found = { teamOnly: false, grants: [] }));
    return found;
  };
  for (const flag of flags) entry(flag.id).teamOnly = flag.teamOnly;
  for (const grant of grants)
    entry(grant.id).grants.push({ teamId: grant.teamId, access: grant.access });
  return entries;
}

const sameResource = (ref: ResourceRefInput) => ({
  settings: and(
    eq(resourceSettings.resourceType, ref.resourceType),
    eq(resourceSettings.resourceId, ref.resourceId),
  ),
  grants: and(
    eq(resourceGrants.resourceType, ref.resourceType),
    eq(resourceGrants.resourceId, ref.resourceId),
  ),
});

export async function getResourceAccess(
  db: Database,
  ref: ResourceRefInput,
): Promise<ResourceAccessSettings> {
  const where = sameResource(ref);
  const [flag] = await db.select().from(resourceSettings).where(where.settings);
  const grants = await db
    .select({ teamId: resourceGrants.teamId, access: resourceGrants.access })
    .from(resourceGrants)
    .where(where.grants)
    .orderBy(asc(resourceGrants.teamId));
  return { ...ref, teamOnly: flag?.teamOnly ?? false, grants };
}

/** Replaces the resource's grants and flag; a resource with neither keeps no row at all. */
export async function updateResourceAccess(
  db: Database,
  input: UpdateResourceAccessInput,
): Promise<ResourceAccessSettings> {
  const [missing] = await missingTeamIds(
    db,
    input.grants.map((grant) => grant.teamId),
  );
  if (missing) throw notFound('Team', missing);
  const ref = { resourceType: input.resourceType, resourceId: input.resourceId };
  const where = sameResource(ref);
  await db.delete(resourceGrants).where(where.grants);
  await db.delete(resourceSettings).where(where.settings);
  if (input.grants.length) {
    await db.insert(resourceGrants).values(input.grants.map((grant) => ({ ...ref, ...grant })));
  }
  if (input.teamOnly) await db.insert(resourceSettings).values({ ...ref, teamOnly: true });
  return getResourceAccess(db, ref);
}
