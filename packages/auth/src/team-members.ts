import type { Database } from '@checkline/db';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { teamMembers, teams } from './db/schema.ts';
import type { TeamUsers } from './schemas.ts';

/**
 * The users who are members of each of `teamIds` now (applications left out), for plugins that
 * address a team's people; a team without user members has none, one that does not exist is left
 * out.
 */
export async function loadTeamUsers(
  db: Database,
  teamIds: readonly string[],
): Promise<TeamUsers[]> {
  if (teamIds.length === 0) return [];
  const rows = await db
    .select({ teamId: teams.id, userId: teamMembers.userId })
    .from(teams)
    .leftJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), isNotNull(teamMembers.userId)))
    .where(inArray(teams.id, [...new Set(teamIds)]));
  const byTeam = new Map<string, string[]>();
  for (const row of rows) {
    const userIds = byTeam.get(row.teamId) ?? [];
    if (row.userId !== null) userIds.push(row.userId);
    byTeam.set(row.teamId, userIds);
  }
  return [...byTeam].map(([id, userIds]) => ({ id, userIds: userIds.sort() }));
}
