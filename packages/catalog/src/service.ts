import { conflict, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { isUniqueViolation, prepared } from '@checkline/db';
import { and, arrayContains, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { groupSystems, groups, systems } from './db/schema.ts';
import type {
  CreateGroupInput,
  CreateSystemInput,
  GetSystemsInput,
  Group,
  GroupMembershipInput,
  System,
  UpdateGroupInput,
  UpdateSystemInput,
} from './schemas.ts';

type SystemRow = typeof systems.$inferSelect;
type GroupRow = typeof groups.$inferSelect;

function toSystem(row: SystemRow): System {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    owner: row.owner,
    metadata: row.metadata,
    tags: row.tags,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toGroup(row: GroupRow, systemIds: string[]): Group {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    systemIds,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const systemNameTaken = (name: string) => conflict(`A system named "${name}" already exists`);
const groupNameTaken = (name: string) => conflict(`A group named "${name}" already exists`);

/** Runs a write, turning a unique-name violation into CONFLICT. */
async function uniqueName<T>(write: () => Promise<T>, onTaken: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw onTaken();
    throw error;
  }
}

const selectSystemById = prepared((db) =>
  db
    .select()
    .from(systems)
    .where(eq(systems.id, sql.placeholder('id')))
    .prepare('catalog_system_by_id'),
);

const selectAllSystems = prepared((db) =>
  db.select().from(systems).orderBy(asc(systems.name)).prepare('catalog_all_systems'),
);

export async function listSystems(db: Database, filter: GetSystemsInput = {}): Promise<System[]> {
  const conditions = [
    filter.ids ? sql`${systems.id} = any(${sql.param(filter.ids)}::uuid[])` : undefined,
    filter.tags?.length ? arrayContains(systems.tags, filter.tags) : undefined,
    filter.owner !== undefined ? eq(systems.owner, filter.owner) : undefined,
  ].filter((condition) => condition !== undefined);
  const rows = conditions.length
    ? await db
        .select()
        .from(systems)
        .where(and(...conditions))
        .orderBy(asc(systems.name))
    : await selectAllSystems(db).execute();
  return rows.map(toSystem);
}

export async function getSystem(db: Database, id: string): Promise<System> {
  const [row] = await selectSystemById(db).execute({ id });
  if (!row) throw notFound('System', id);
  return toSystem(row);
}

export async function createSystem(db: Database, input: CreateSystemInput): Promise<System> {
  const [row] = await db
    .insert(systems)
    .values({
      name: input.name,
      description: input.description ?? '',
      owner: input.owner ?? null,
      metadata: input.metadata ?? {},
      tags: input.tags ?? [],
    })
    .onConflictDoNothing({ target: systems.name })
    .returning();
  if (!row) throw systemNameTaken(input.name);
  return toSystem(row);
}

export async function updateSystem(db: Database, input: UpdateSystemInput): Promise<System> {
  const { id, ...changes } = input;
  const [row] = await uniqueName(
    () =>
      db
        .update(systems)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(systems.id, id))
        .returning(),
    () => systemNameTaken(changes.name ?? ''),
  );
  if (!row) throw notFound('System', id);
  return toSystem(row);
}

export async function deleteSystem(db: Database, id: string) {
  const [row] = await db.delete(systems).where(eq(systems.id, id)).returning({ id: systems.id });
  if (!row) throw notFound('System', id);
  return { id: row.id, deleted: true as const };
}

/** Groups with their member ids aggregated in the same statement. */
function selectGroups(db: Database) {
  return db
    .select({
      ...getTableColumns(groups),
      systemIds: sql<
        string[]
      >`coalesce(array_agg(${groupSystems.systemId} order by ${groupSystems.systemId}) filter (where ${groupSystems.systemId} is not null), '{}')`,
    })
    .from(groups)
    .leftJoin(groupSystems, eq(groupSystems.groupId, groups.id))
    .groupBy(groups.id)
    .orderBy(asc(groups.name))
    .$dynamic();
}

const selectAllGroups = prepared((db) => selectGroups(db).prepare('catalog_all_groups'));

const selectGroupById = prepared((db) =>
  selectGroups(db)
    .where(eq(groups.id, sql.placeholder('id')))
    .prepare('catalog_group_by_id'),
);

const selectGroupsOfSystem = prepared((db) =>
  selectGroups(db)
    .where(
      sql`${groups.id} in (select ${groupSystems.groupId} from ${groupSystems} where ${groupSystems.systemId} = ${sql.placeholder('systemId')})`,
    )
    .prepare('catalog_groups_of_system'),
);

type GroupWithMembers = GroupRow & { systemIds: string[] };

const toGroupWithMembers = (row: GroupWithMembers) => toGroup(row, row.systemIds);

export async function listGroups(db: Database): Promise<Group[]> {
  return (await selectAllGroups(db).execute()).map(toGroupWithMembers);
}

export async function listGroupsOfSystem(db: Database, systemId: string): Promise<Group[]> {
  const rows = await selectGroupsOfSystem(db).execute({ systemId });
  if (rows.length === 0) await getSystem(db, systemId);
  return rows.map(toGroupWithMembers);
}

export async function getGroup(db: Database, id: string): Promise<Group> {
  const [row] = await selectGroupById(db).execute({ id });
  if (!row) throw notFound('Group', id);
  return toGroupWithMembers(row);
}

export async function createGroup(db: Database, input: CreateGroupInput): Promise<Group> {
  const [row] = await db
    .insert(groups)
    .values({ name: input.name, description: input.description ?? '' })
    .onConflictDoNothing({ target: groups.name })
    .returning();
  if (!row) throw groupNameTaken(input.name);
  return toGroup(row, []);
}

export async function updateGroup(db: Database, input: UpdateGroupInput): Promise<Group> {
  const { id, ...changes } = input;
  const [row] = await uniqueName(
    () =>
      db
        .update(groups)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(groups.id, id))
        .returning(),
    () => groupNameTaken(changes.name ?? ''),
  );
  if (!row) throw notFound('Group', id);
  return getGroup(db, id);
}

export async function deleteGroup(db: Database, id: string) {
  const [row] = await db.delete(groups).where(eq(groups.id, id)).returning({ id: groups.id });
  if (!row) throw notFound('Group', id);
  return { id: row.id, deleted: true as const };
}

export async function addSystemToGroup(db: Database, input: GroupMembershipInput): Promise<Group> {
  await getGroup(db, input.groupId);
  await getSystem(db, input.systemId);
  await db.insert(groupSystems).values(input).onConflictDoNothing();
  return getGroup(db, input.groupId);
}

export async function removeSystemFromGroup(
  db: Database,
  input: GroupMembershipInput,
): Promise<Group> {
  await getGroup(db, input.groupId);
  await db
    .delete(groupSystems)
    .where(and(eq(groupSystems.groupId, input.groupId), eq(groupSystems.systemId, input.systemId)));
  return getGroup(db, input.groupId);
}
