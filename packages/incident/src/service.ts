import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import { notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder, prepared } from '@checkline/db';
import type { SQL } from 'drizzle-orm';
import { and, eq, ne, not, sql } from 'drizzle-orm';
import { incidentSystems, incidents } from './db/schema.ts';
import { replaceIncidentSystems, systemIdsByIncident } from './incident-systems.ts';
import type {
  CreateIncidentInput,
  GetIncidentsInput,
  Incident,
  IncidentDetail,
  IncidentList,
  ListIncidentsInput,
  UpdateIncidentInput,
} from './schemas.ts';
import type { Author } from './timeline.ts';
import { appendTimelineEntry, timelineOf } from './timeline.ts';

type IncidentRow = typeof incidents.$inferSelect;

/** What an update changed, which decides the event it publishes. */
export type IncidentChange = 'none' | 'updated' | 'resolved';

function toIncident(row: IncidentRow, systemIds: string[]): Incident {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    severity: row.severity,
    status: row.status,
    systemIds,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function withSystems(db: Database, rows: IncidentRow[]): Promise<Incident[]> {
  const systems = await systemIdsByIncident(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toIncident(row, systems.get(row.id) ?? []));
}

const unresolved = ne(incidents.status, 'resolved');
const affects = (systemId: string) =>
  sql`exists (select 1 from ${incidentSystems} where ${incidentSystems.incidentId} = ${incidents.id} and ${incidentSystems.systemId} = ${systemId})`;
const incidentPages = keysetPages(
  'incident.incidents',
  keysetOrder([incidents.createdAt, incidents.id], 'desc'),
);

const selectIncidentById = prepared((db) =>
  db
    .select()
    .from(incidents)
    .where(eq(incidents.id, sql.placeholder('id')))
    .prepare('incident_by_id'),
);

export async function getIncident(db: Database, id: string): Promise<IncidentDetail> {
  const [row] = await selectIncidentById(db).execute({ id });
  if (!row) throw notFound('Incident', id);
  const systems = await systemIdsByIncident(db, [id]);
  return { ...toIncident(row, systems.get(id) ?? []), timeline: await timelineOf(db, id) };
}

/** A page of incidents matching `where`, newest first, after `cursor`. */
async function readPage(
  db: Database,
  where: SQL | undefined,
  page: { limit: number; cursor?: string | null | undefined },
  scope: PageScope,
): Promise<IncidentList> {
  const { items, nextCursor } = await incidentPages.read(
    db,
    incidents,
    { ...page, where },
    scope,
    (rows) => withSystems(db, rows),
  );
  return { incidents: items, nextCursor };
}

const matching = (filter: { systemId?: string | undefined }, includeResolved: boolean) =>
  and(
    includeResolved ? undefined : unresolved,
    filter.systemId === undefined ? undefined : affects(filter.systemId),
  );

/** A page of unresolved incidents, newest first. */
export async function listOpenIncidents(
  db: Database,
  input: GetIncidentsInput,
  scope: PageScope,
): Promise<IncidentList> {
  return readPage(db, matching(input, false), input, scope);
}

/** Incidents attached to at least one system, all of them among `hidden`. */
const onlyAffecting = (hidden: ReadonlySet<string>) =>
  sql`(exists (select 1 from ${incidentSystems} where ${incidentSystems.incidentId} = ${incidents.id})
    and not exists (select 1 from ${incidentSystems} where ${incidentSystems.incidentId} = ${incidents.id}
      and ${incidentSystems.systemId} <> all(${sql.param([...hidden])}::uuid[])))`;

/**
 * A page of incidents newest first; incidents whose systems are all in `hiddenSystemIds`
 * (team-only systems the caller may not see) are left out.
 */
export async function listIncidents(
  db: Database,
  input: ListIncidentsInput,
  scope: PageScope,
  hiddenSystemIds: ReadonlySet<string> = new Set(),
): Promise<IncidentList> {
  const where = and(
    matching(input, input.includeResolved),
    hiddenSystemIds.size === 0 ? undefined : not(onlyAffecting(hiddenSystemIds)),
  );
  return readPage(db, where, input, scope);
}

export async function createIncident(
  db: Database,
  input: CreateIncidentInput,
  author: Author,
): Promise<IncidentDetail> {
  const [row] = await db
    .insert(incidents)
    .values({ title: input.title, description: input.description ?? '', severity: input.severity })
    .returning();
  const { id, status } = row!;
  await replaceIncidentSystems(db, id, input.systemIds ?? []);
  await appendTimelineEntry(db, { incidentId: id, status, message: null, author });
  return getIncident(db, id);
}

const changed = <T>(next: T | undefined, stored: T) =>
  next !== undefined && next !== stored ? next : undefined;

const sameMembers = (a: readonly string[], b: readonly string[]) => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((id) => right.has(id));
};

/**
 * Applies the given fields. A new status or a message appends a timeline entry; resolving sets
 * `resolvedAt`, reopening clears it. Giving only what is already stored changes nothing.
 */
export async function updateIncident(
  db: Database,
  input: UpdateIncidentInput,
  author: Author,
): Promise<{ incident: IncidentDetail; change: IncidentChange }> {
  const [current] = await db
    .select()
    .from(incidents)
    .where(eq(incidents.id, input.id))
    .for('update');
  if (!current) throw notFound('Incident', input.id);
  const storedSystems = (await systemIdsByIncident(db, [current.id])).get(current.id) ?? [];
  const status = input.status ?? current.status;
  const statusChanged = status !== current.status;
  const fields = {
    title: changed(input.title, current.title),
    severity: changed(input.severity, current.severity),
    description: changed(input.description, current.description),
  };
  const systemsChanged =
    input.systemIds !== undefined && !sameMembers(input.systemIds, storedSystems);
  const fieldsChanged = Object.values(fields).some((value) => value !== undefined);
  if (!statusChanged && !fieldsChanged && !systemsChanged && input.message === undefined) {
    return { incident: await getIncident(db, current.id), change: 'none' };
  }

  await db
    .update(incidents)
    .set({
      ...fields,
      status,
      ...(statusChanged && {
        resolvedAt: status === 'resolved' ? sql`clock_timestamp()` : null,
      }),
      updatedAt: sql`clock_timestamp()`,
    })
    .where(eq(incidents.id, current.id));
  if (systemsChanged) await replaceIncidentSystems(db, current.id, input.systemIds ?? []);
  if (statusChanged || input.message !== undefined) {
    await appendTimelineEntry(db, {
      incidentId: current.id,
      status,
      message: input.message ?? null,
      author,
    });
  }
  const incident = await getIncident(db, current.id);
  return { incident, change: statusChanged && status === 'resolved' ? 'resolved' : 'updated' };
}

export async function deleteIncident(db: Database, id: string) {
  const [row] = await db
    .delete(incidents)
    .where(eq(incidents.id, id))
    .returning({ id: incidents.id });
  if (!row) throw notFound('Incident', id);
  return { id: row.id, deleted: true as const };
}

/** Removes a deleted catalog system from every incident; returns how many incidents had it. */
export async function detachSystem(db: Database, systemId: string): Promise<number> {
  const rows = await db
    .delete(incidentSystems)
    .where(eq(incidentSystems.systemId, systemId))
    .returning({ incidentId: incidentSystems.incidentId });
  return rows.length;
}
