import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import type { PageInput, Principal } from '@checkline/core/contract';
import { conflict, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder, uniqueOr } from '@checkline/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { applications, teamMembers, teams, users } from './db/schema.ts';
import type {
  AddTeamMemberInput,
  CreateTeamInput,
  RemoveTeamMemberInput,
  Team,
  TeamMember,
  TeamPage,
  UpdateTeamInput,
} from './schemas.ts';

type TeamRow = typeof teams.$inferSelect;
type MemberRow = typeof teamMembers.$inferSelect;

function toMember(row: MemberRow): TeamMember {
  return row.userId
    ? { kind: 'user', id: row.userId, manager: row.manager }
    : { kind: 'application', id: row.applicationId!, manager: row.manager };
}

function toTeam(row: TeamRow, members: TeamMember[]): Team {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    members,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const nameTaken = (name: string) => conflict(`A team named "${name}" already exists`);

async function membersByTeam(db: Database, teamIds: string[]) {
  const byTeam = new Map<string, TeamMember[]>(teamIds.map((id) => [id, []]));
  if (teamIds.length === 0) return byTeam;
  const rows = await db
    .select()
    .from(teamMembers)
    .where(inArray(teamMembers.teamId, teamIds))
    .orderBy(asc(teamMembers.createdAt), asc(teamMembers.id));
  for (const row of rows) byTeam.get(row.teamId)?.push(toMember(row));
  return byTeam;
}

// Names are unique, so they alone order teams totally, by their unique index.
const teamPages = keysetPages('auth.teams', keysetOrder([teams.name]));

/** A page of teams by name, with their members. */
export async function listTeams(
  db: Database,
  input: PageInput,
  scope: PageScope,
): Promise<TeamPage> {
  const page = await teamPages.read(db, teams, input, scope, async (rows) => {
    const members = await membersByTeam(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toTeam(row, members.get(row.id) ?? []));
  });
  return { teams: page.items, nextCursor: page.nextCursor };
}

export async function getTeam(db: Database, id: string): Promise<Team> {
  const [row] = await db.select().from(teams).where(eq(teams.id, id));
  if (!row) throw notFound('Team', id);
  const members = await membersByTeam(db, [id]);
  return toTeam(row, members.get(id) ?? []);
}

/** The ids among `ids` that name no team. */
export async function missingTeamIds(db: Database, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: teams.id })
    .from(teams)
    .where(inArray(teams.id, [...ids]));
  return ids.filter((id) => !rows.some((row) => row.id === id));
}

export async function createTeam(db: Database, input: CreateTeamInput): Promise<Team> {
  const [row] = await db
    .insert(teams)
    .values({ name: input.name, description: input.description ?? '' })
    .onConflictDoNothing({ target: teams.name })
    .returning();
  if (!row) throw nameTaken(input.name);
  return toTeam(row, []);
}

export async function updateTeam(db: Database, input: UpdateTeamInput): Promise<Team> {
  const { id, ...changes } = input;
  const [row] = await uniqueOr(
    () =>
      db
        .update(teams)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(teams.id, id))
        .returning({ id: teams.id }),
    () => nameTaken(changes.name ?? ''),
  );
  if (!row) throw notFound('Team', id);
  return getTeam(db, id);
}

export async function deleteTeam(db: Database, id: string) {
  const [row] = await db.delete(teams).where(eq(teams.id, id)).returning({ id: teams.id });
  if (!row) throw notFound('Team', id);
  return { id: row.id, deleted: true as const };
}

async function assertMemberExists(
  db: Database,
  input: { userId?: string; applicationId?: string },
) {
  if (input.userId) {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
    if (!row) throw notFound('User', input.userId);
  } else if (input.applicationId) {
    const [row] = await db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.id, input.applicationId));
    if (!row) throw notFound('Application', input.applicationId);
  }
}

/** Adds a member, or sets the manager flag of one who already is. */
export async function addTeamMember(db: Database, input: AddTeamMemberInput): Promise<Team> {
  await getTeam(db, input.teamId);
  await assertMemberExists(db, input);
  const manager = input.manager ?? false;
  const target = input.userId
    ? [teamMembers.teamId, teamMembers.userId]
    : [teamMembers.teamId, teamMembers.applicationId];
  await db
    .insert(teamMembers)
    .values({
      teamId: input.teamId,
      userId: input.userId ?? null,
      applicationId: input.applicationId ?? null,
      manager,
    })
    .onConflictDoUpdate({ target, set: { manager } });
  return getTeam(db, input.teamId);
}

const memberCondition = (input: { userId?: string; applicationId?: string }) =>
  input.userId
    ? eq(teamMembers.userId, input.userId)
    : eq(teamMembers.applicationId, input.applicationId!);

export async function removeTeamMember(db: Database, input: RemoveTeamMemberInput): Promise<Team> {
  await getTeam(db, input.teamId);
  await db
    .delete(teamMembers)
    .where(and(eq(teamMembers.teamId, input.teamId), memberCondition(input)));
  return getTeam(db, input.teamId);
}

/** Whether the caller is a manager of the team. */
export async function managesTeam(db: Database, principal: Principal, teamId: string) {
  if (principal.id === null || (principal.kind !== 'user' && principal.kind !== 'application')) {
    return false;
  }
  const member =
    principal.kind === 'user'
      ? eq(teamMembers.userId, principal.id)
      : eq(teamMembers.applicationId, principal.id);
  const [row] = await db
    .select({ manager: teamMembers.manager })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), member));
  return row?.manager === true;
}
