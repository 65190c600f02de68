import type { Database } from '@checkline/db';
import { prepared } from '@checkline/db';
import { asc, eq, sql } from 'drizzle-orm';
import { windowSystems } from './db/schema.ts';

const selectSystemsOfWindows = prepared((db) =>
  db
    .select()
    .from(windowSystems)
    .where(sql`${windowSystems.windowId} = any(${sql.placeholder('ids')}::uuid[])`)
    .orderBy(asc(windowSystems.systemId))
    .prepare('maintenance_systems_of_windows'),
);

/** The sorted system ids of each window in `windowIds`, in one query. */
export async function systemIdsByWindow(
  db: Database,
  windowIds: readonly string[],
): Promise<Map<string, string[]>> {
  const byWindow = new Map<string, string[]>(windowIds.map((id) => [id, []]));
  if (windowIds.length === 0) return byWindow;
  const rows = await selectSystemsOfWindows(db).execute({ ids: [...windowIds] });
  for (const row of rows) byWindow.get(row.windowId)?.push(row.systemId);
  return byWindow;
}

export async function replaceWindowSystems(
  db: Database,
  windowId: string,
  systemIds: readonly string[],
): Promise<void> {
  await db.delete(windowSystems).where(eq(windowSystems.windowId, windowId));
  const unique = [...new Set(systemIds)];
  if (unique.length > 0) {
    await db.insert(windowSystems).values(unique.map((systemId) => ({ windowId, systemId })));
  }
}
