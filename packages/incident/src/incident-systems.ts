import type { Database } from '@checkline/db';
import { prepared } from '@checkline/db';
import { asc, eq, sql } from 'drizzle-orm';
import { incidentSystems } from './db/schema.ts';

const selectSystemsOfIncidents = prepared((db) =>
  db
    .select()
    .from(incidentSystems)
    .where(sql`${incidentSystems.incidentId} = any(${sql.placeholder('ids')}::uuid[])`)
    .orderBy(asc(incidentSystems.systemId))
    .prepare('incident_systems_of_incidents'),
);

/** The sorted system ids of each incident in `incidentIds`, in one query. */
export async function systemIdsByIncident(
  db: Database,
  incidentIds: readonly string[],
): Promise<Map<string, string[]>> {
  const byIncident = new Map<string, string[]>(incidentIds.map((id) => [id, []]));
  if (incidentIds.length === 0) return byIncident;
  const rows = await selectSystemsOfIncidents(db).execute({ ids: [...incidentIds] });
  for (const row of rows) byIncident.get(row.incidentId)?.push(row.systemId);
  return byIncident;
}

export async function replaceIncidentSystems(
  db: Database,
  incidentId: string,
  systemIds: readonly string[],
): Promise<void> {
  await db.delete(incidentSystems).where(eq(incidentSystems.incidentId, incidentId));
  const unique = [...new Set(systemIds)];
  if (unique.length > 0) {
    await db.insert(incidentSystems).values(unique.map((systemId) => ({ incidentId, systemId })));
  }
}
