import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import { badRequest, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder, prepared } from '@checkline/db';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { windowSystems, windows } from './db/schema.ts';
import type {
  GetWindowsInput,
  ScheduleWindowInput,
  UpdateWindowInput,
  Window,
  WindowPage,
} from './schemas.ts';
import { settleAnnouncements } from './transitions.ts';
import { replaceWindowSystems, systemIdsByWindow } from './window-systems.ts';

type WindowRow = typeof windows.$inferSelect;

function toWindow(row: WindowRow, systemIds: string[]): Window {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    systemIds,
    startAt: row.startAt.toISOString(),
    endAt: row.endAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function withSystems(db: Database, rows: WindowRow[]): Promise<Window[]> {
  const systems = await systemIdsByWindow(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toWindow(row, systems.get(row.id) ?? []));
}

/** Throws BAD_REQUEST, with an issue on `endAt`, unless the window starts before it ends. */
function checkPeriod(startAt: Date, endAt: Date): { startAt: Date; endAt: Date } {
  if (startAt >= endAt) {
    throw badRequest('A maintenance window must start before it ends', [
      { path: 'endAt', message: 'Must be after startAt' },
    ]);
  }
  return { startAt, endAt };
}

const coversSystem = (systemId: string) =>
  sql`exists (select 1 from ${windowSystems} where ${windowSystems.windowId} = ${windows.id} and ${windowSystems.systemId} = ${systemId})`;

const windowPages = keysetPages('maintenance.windows', keysetOrder([windows.startAt, windows.id]));

/** A page of windows by start, active and upcoming ones unless `includePast`. */
export async function listWindows(
  db: Database,
  input: GetWindowsInput,
  scope: PageScope,
  now = new Date(),
): Promise<WindowPage> {
  const where = and(
    input.includePast ? undefined : gt(windows.endAt, now),
    input.systemId === undefined ? undefined : coversSystem(input.systemId),
  );
  const page = await windowPages.read(db, windows, { ...input, where }, scope, (rows) =>
    withSystems(db, rows),
  );
  return { windows: page.items, nextCursor: page.nextCursor };
}

const selectActiveCovering = prepared((db) =>
  db
    .select()
    .from(windows)
    .where(
      sql`${windows.startAt} <= ${sql.placeholder('now')}::timestamptz
        and ${windows.endAt} > ${sql.placeholder('now')}::timestamptz
        and exists (select 1 from ${windowSystems}
          where ${windowSystems.windowId} = ${windows.id}
            and ${windowSystems.systemId} = any(${sql.placeholder('systemIds')}::uuid[]))`,
    )
    .orderBy(asc(windows.startAt), asc(windows.id))
    .prepare('maintenance_active_windows_covering'),
);

/** Windows active at `now` covering any of `systemIds`: two queries however many ids. */
export async function activeWindowsCovering(
  db: Database,
  systemIds: readonly string[],
  now = new Date(),
): Promise<Window[]> {
  if (systemIds.length === 0) return [];
  const rows = await selectActiveCovering(db).execute({
    now: now.toISOString(),
    systemIds: [...new Set(systemIds)],
  });
  return withSystems(db, rows);
}

export async function getWindow(db: Database, id: string): Promise<Window> {
  const [row] = await db.select().from(windows).where(eq(windows.id, id));
  if (!row) throw notFound('Maintenance window', id);
  const [window] = await withSystems(db, [row]);
  return window!;
}

export async function scheduleWindow(
  db: Database,
  input: ScheduleWindowInput,
  now = new Date(),
): Promise<Window> {
  const period = checkPeriod(new Date(input.startAt), new Date(input.endAt));
  const unannounced = { startedNotifiedAt: null, endedNotifiedAt: null };
  const [row] = await db
    .insert(windows)
    .values({
      title: input.title,
      description: input.description ?? '',
      ...period,
      ...settleAnnouncements(period, unannounced, now),
    })
    .returning();
  await replaceWindowSystems(db, row!.id, input.systemIds);
  return getWindow(db, row!.id);
}

export async function updateWindow(
  db: Database,
  input: UpdateWindowInput,
  now = new Date(),
): Promise<Window> {
  // Locked so the ticker cannot announce this window between our read and our write.
  const [current] = await db.select().from(windows).where(eq(windows.id, input.id)).for('update');
  if (!current) throw notFound('Maintenance window', input.id);
  const period = checkPeriod(
    input.startAt === undefined ? current.startAt : new Date(input.startAt),
    input.endAt === undefined ? current.endAt : new Date(input.endAt),
  );
  await db
    .update(windows)
    .set({
      title: input.title,
      description: input.description,
      ...period,
      ...settleAnnouncements(period, current, now),
      updatedAt: now,
    })
    .where(eq(windows.id, input.id));
  if (input.systemIds !== undefined) await replaceWindowSystems(db, input.id, input.systemIds);
  return getWindow(db, input.id);
}

/** Deletes a window; `interrupted` is true when its start was announced and its end was not. */
export async function deleteWindow(
  db: Database,
  id: string,
): Promise<{ window: Window; interrupted: boolean }> {
  const window = await getWindow(db, id);
  const [row] = await db.delete(windows).where(eq(windows.id, id)).returning();
  if (!row) throw notFound('Maintenance window', id);
  return { window, interrupted: row.startedNotifiedAt !== null && row.endedNotifiedAt === null };
}

/** Removes a deleted catalog system from every window; returns how many windows covered it. */
export async function detachSystem(db: Database, systemId: string): Promise<number> {
  const rows = await db
    .delete(windowSystems)
    .where(eq(windowSystems.systemId, systemId))
    .returning({ windowId: windowSystems.windowId });
  return rows.length;
}
