import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import { conflict, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder, prepared, uniqueOr } from '@checkline/db';
import { and, arrayContains, eq, getTableColumns, sql } from 'drizzle-orm';
import { groupSystems, groups, systems } from './db/schema.ts';
import type {
  CreateGroupInput,
  CreateSystemInput,
  GetGroupsInput,
  GetSystemGroupsInput,
  GetSystemsInput,
  Group,
  GroupMembershipInput,
  GroupPage,
  System,
  SystemPage,
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

const selectSystemById = prepared((db) =>
  db
    .select()
    .from(systems)
    .where(eq(systems.id, sql.placeholder('id')))
    .prepare('catalog_system_by_id'),
);

// Names are unique, so the name alone orders systems (and groups) totally, by their unique index.
const systemPages = keysetPages('catalog.systems', keysetOrder([systems.name]));

const selectSystemPage = (db: Database) =>
  db
    .select({ ...getTableColumns(systems), pageKey: systemPages.key })
    .from(systems)
    .orderBy(...systemPages.orderBy)
    .$dynamic();

const selectFirstSystems = prepared((db) =>
  selectSystemPage(db).limit(sql.placeholder('limit')).prepare('catalog_first_systems'),
);

/** A page of systems by name, of those `scope` may see; filters apply before paging. */
export async function listSystems(
  db: Database,
  input: GetSystemsInput,
  scope: PageScope,
): Promise<SystemPage> {
  const filters = [
    input.ids ? sql`${systems.id} = any(${sql.param(input.ids)}::uuid[])` : undefined,
    input.tags?.length ? arrayContains(systems.tags, input.tags) : undefined,
    input.owner !== undefined ? eq(systems.owner, input.owner) : undefined,
  ];
  const page = await systemPages.collect(
    scope,
    input,
    async (after, count) => {
      const conditions = [...filters, after].filter((condition) => condition !== undefined);
      return conditions.length
        ? selectSystemPage(db)
            .where(and(...conditions))
            .limit(count)
        : selectFirstSystems(db).execute({ limit: count });
    },
    (rows) => rows.map(toSystem),
  );
  return { systems: page.items, nextCursor: page.nextCursor };
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
  const [row] = await uniqueOr(
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

const groupPages = keysetPages('catalog.groups', keysetOrder([groups.name]));

/** Groups by name with their member ids aggregated in the same statement (and their page key). */
function selectGroups(db: Database) {
  return db
    .select({
      ...getTableColumns(groups),
      systemIds: sql<
        string[]
      >`coalesce(array_agg(${groupSystems.systemId} order by ${groupSystems.systemId}) filter (where ${groupSystems.systemId} is not null), '{}')`,
      pageKey: groupPages.key,
    })
    .from(groups)
    .leftJoin(groupSystems, eq(groupSystems.groupId, groups.id))
    .groupBy(groups.id)
    .orderBy(...groupPages.orderBy)
    .$dynamic();
}

const selectGroupById = prepared((db) =>
  selectGroups(db)
    .where(eq(groups.id, sql.placeholder('id')))
    .prepare('catalog_group_by_id'),
);

const selectFirstGroups = prepared((db) =>
  selectGroups(db).limit(sql.placeholder('limit')).prepare('catalog_first_groups'),
);

const inSystem = (systemId: string) =>
  sql`${groups.id} in (select ${groupSystems.groupId} from ${groupSystems} where ${groupSystems.systemId} = ${systemId})`;

type GroupWithMembers = GroupRow & { systemIds: string[] };

const toGroupWithMembers = (row: GroupWithMembers) => toGroup(row, row.systemIds);

/** A page of groups by name, with their members, of those `scope` may see. */
export async function listGroups(
  db: Database,
  input: GetGroupsInput,
  scope: PageScope,
): Promise<GroupPage> {
  const page = await groupPages.collect(
    scope,
    input,
    async (after, count) =>
      after === undefined
        ? selectFirstGroups(db).execute({ limit: count })
        : selectGroups(db).where(after).limit(count),
    (rows) => rows.map(toGroupWithMembers),
  );
  return { groups: page.items, nextCursor: page.nextCursor };
}

/** A page of the groups `systemId` belongs to; NOT_FOUND for an unknown system. */
export async function listGroupsOfSystem(
  db: Database,
  input: GetSystemGroupsInput,
  scope: PageScope,
): Promise<GroupPage> {
  await getSystem(db, input.systemId);
  const page = await groupPages.collect(
    scope,
    input,
    async (after, count) =>
      selectGroups(db)
        .where(and(inSystem(input.systemId), after))
        .limit(count),
    (rows) => rows.map(toGroupWithMembers),
  );
  return { groups: page.items, nextCursor: page.nextCursor };
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
  const [row] = await uniqueOr(
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
  // A system named must exist, so a missing one answers as a hidden one does (NOT_FOUND).
  await getSystem(db, input.systemId);
  await db
    .delete(groupSystems)
    .where(and(eq(groupSystems.groupId, input.groupId), eq(groupSystems.systemId, input.systemId)));
  return getGroup(db, input.groupId);
}
