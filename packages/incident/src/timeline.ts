import type { Principal } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { prepared } from '@checkline/db';
import { asc, eq, sql } from 'drizzle-orm';
import { incidentUpdates } from './db/schema.ts';
import type { IncidentStatus, IncidentUpdate } from './schemas.ts';

/** Who wrote a timeline entry: the calling principal. */
export type Author = Pick<Principal, 'id' | 'kind'>;

const selectTimeline = prepared((db) =>
  db
    .select()
    .from(incidentUpdates)
    .where(eq(incidentUpdates.incidentId, sql.placeholder('incidentId')))
    .orderBy(asc(incidentUpdates.createdAt), asc(incidentUpdates.id))
    .prepare('incident_timeline'),
);

/** An incident's timeline, oldest entry first. */
export async function timelineOf(db: Database, incidentId: string): Promise<IncidentUpdate[]> {
  const rows = await selectTimeline(db).execute({ incidentId });
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    message: row.message,
    authorId: row.authorId,
    authorKind: row.authorKind,
    createdAt: row.createdAt.toISOString(),
  }));
}

export async function appendTimelineEntry(
  db: Database,
  entry: { incidentId: string; status: IncidentStatus; message: string | null; author: Author },
): Promise<void> {
  await db.insert(incidentUpdates).values({
    incidentId: entry.incidentId,
    status: entry.status,
    message: entry.message,
    authorId: entry.author.id,
    authorKind: entry.author.kind,
  });
}
