import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import type { PageInput } from '@checkline/core/contract';
import { conflict, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder, prepared, uniqueOr } from '@checkline/db';
import { eq, inArray, sql } from 'drizzle-orm';
import { generateApiKey, hashApiKey, newApplicationId } from './api-key.ts';
import { applicationRoles, applications, teamMembers } from './db/schema.ts';
import type {
  Application,
  ApplicationPage,
  CreateApplicationInput,
  UpdateApplicationInput,
} from './schemas.ts';

type ApplicationRow = typeof applications.$inferSelect;

const iso = (date: Date | null) => date?.toISOString() ?? null;

function toApplication(row: ApplicationRow, roleIds: string[], teamIds: string[]): Application {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    roleIds: roleIds.sort(),
    teamIds: teamIds.sort(),
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const nameTaken = (name: string) => conflict(`An application named "${name}" already exists`);

async function membershipsOf(db: Database, ids: string[]) {
  const roles = new Map<string, string[]>(ids.map((id) => [id, []]));
  const teams = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return { roles, teams };
  const [roleRows, teamRows] = await Promise.all([
    db.select().from(applicationRoles).where(inArray(applicationRoles.applicationId, ids)),
    db
      .select({ applicationId: teamMembers.applicationId, teamId: teamMembers.teamId })
      .from(teamMembers)
      .where(inArray(teamMembers.applicationId, ids)),
  ]);
  for (const row of roleRows) roles.get(row.applicationId)?.push(row.roleId);
  for (const row of teamRows) if (row.applicationId) teams.get(row.applicationId)?.push(row.teamId);
  return { roles, teams };
}

// Names are unique, so they alone order applications totally, by their unique index.
const applicationPages = keysetPages('auth.applications', keysetOrder([applications.name]));

/** A page of applications by name. */
export async function listApplications(
  db: Database,
  input: PageInput,
  scope: PageScope,
): Promise<ApplicationPage> {
  const page = await applicationPages.read(db, applications, input, scope, async (rows) => {
    const { roles, teams } = await membershipsOf(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toApplication(row, roles.get(row.id) ?? [], teams.get(row.id) ?? []));
  });
  return { applications: page.items, nextCursor: page.nextCursor };
}

export async function getApplication(db: Database, id: string): Promise<Application> {
  const [row] = await db.select().from(applications).where(eq(applications.id, id));
  if (!row) throw notFound('Application', id);
  const { roles, teams } = await membershipsOf(db, [id]);
  return toApplication(row, roles.get(id) ?? [], teams.get(id) ?? []);
}

/** A new application holding `roleIds`, and its key: returned this once, stored as a hash. */
export async function createApplication(
  db: Database,
  input: CreateApplicationInput,
  roleIds: readonly string[],
): Promise<{ application: Application; secret: string }> {
  const { applicationId, key } = generateApiKey(newApplicationId());
  const [row] = await db
    .insert(applications)
    .values({
      id: applicationId,
      name: input.name,
      description: input.description ?? '',
      secretHash: hashApiKey(key),
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    })
    .onConflictDoNothing({ target: applications.name })
    .returning({ id: applications.id });
  if (!row) throw nameTaken(input.name);
  await setApplicationRoles(db, applicationId, roleIds);
  return { application: await getApplication(db, applicationId), secret: key };
}

export async function updateApplication(
  db: Database,
  input: Omit<UpdateApplicationInput, 'roleIds'>,
): Promise<void> {
  const { id, name, description, expiresAt } = input;
  const [row] = await uniqueOr(
    () =>
      db
        .update(applications)
        .set({
          ...(name !== undefined && { name }),
          ...(description !== undefined && { description }),
          ...(expiresAt !== undefined && { expiresAt: expiresAt ? new Date(expiresAt) : null }),
          updatedAt: new Date(),
        })
        .where(eq(applications.id, id))
        .returning({ id: applications.id }),
    () => nameTaken(name ?? ''),
  );
  if (!row) throw notFound('Application', id);
}

export async function setApplicationRoles(
  db: Database,
  applicationId: string,
  roleIds: readonly string[],
): Promise<void> {
  await db.delete(applicationRoles).where(eq(applicationRoles.applicationId, applicationId));
  const unique = [...new Set(roleIds)];
  if (unique.length) {
    await db.insert(applicationRoles).values(unique.map((roleId) => ({ applicationId, roleId })));
  }
}

export async function deleteApplication(db: Database, id: string) {
  const [row] = await db
    .delete(applications)
    .where(eq(applications.id, id))
    .returning({ id: applications.id });
  if (!row) throw notFound('Application', id);
  return { id: row.id, deleted: true as const };
}

/**
 * A new key for the application. The old key keeps working for `gracePeriodSeconds` (so
 * deployments can switch over), or stops at once when it is 0.
 */
export async function regenerateSecret(
  db: Database,
  id: string,
  gracePeriodSeconds: number,
): Promise<string> {
  const { key } = generateApiKey(id);
  const graceEnds = new Date(Date.now() + gracePeriodSeconds * 1000);
  const [row] = await db
    .update(applications)
    .set({
      secretHash: hashApiKey(key),
      previousSecretHash: gracePeriodSeconds > 0 ? sql`${applications.secretHash}` : null,
      previousSecretExpiresAt: gracePeriodSeconds > 0 ? graceEnds : null,
      updatedAt: new Date(),
    })
    .where(eq(applications.id, id))
    .returning({ id: applications.id });
  if (!row) throw notFound('Application', id);
  return key;
}

const selectKeyRecord = prepared((db) =>
  db
    .select({
      id: applications.id,
      secretHash: applications.secretHash,
      previousSecretHash: applications.previousSecretHash,
      previousSecretExpiresAt: applications.previousSecretExpiresAt,
      expiresAt: applications.expiresAt,
    })
    .from(applications)
    .where(eq(applications.id, sql.placeholder('id')))
    .prepare('auth_application_key'),
);

export type KeyRecord = Awaited<ReturnType<ReturnType<typeof selectKeyRecord>['execute']>>[number];

export async function findKeyRecord(db: Database, id: string): Promise<KeyRecord | undefined> {
  const [row] = await selectKeyRecord(db).execute({ id });
  return row;
}

const touchApplication = prepared((db) =>
  db
    .update(applications)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(applications.id, sql.placeholder('id')))
    .prepare('auth_application_touch'),
);

export async function recordApplicationUse(db: Database, id: string): Promise<void> {
  await touchApplication(db).execute({ id });
}
