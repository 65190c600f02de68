import type { Database } from '@checkline/db';
import { and, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import { windows } from './db/schema.ts';
import type { MaintenanceEvent } from './events.ts';
import { systemIdsByWindow } from './window-systems.ts';

export interface Announcements {
  started: MaintenanceEvent[];
  ended: MaintenanceEvent[];
}

interface AnnouncementState {
  startedNotifiedAt: Date | null;
  endedNotifiedAt: Date | null;
}

/**
 * The announcement columns for a window written with `period` at `now`. A window written wholly
 * in the past has nothing left to announce; one that had ended and is moved back into the future
 * starts a fresh cycle, so its start and end are announced again.
 */
export function settleAnnouncements(
  period: { startAt: Date; endAt: Date },
  current: AnnouncementState,
  now: Date,
): AnnouncementState {
  if (period.endAt <= now && current.startedNotifiedAt === null) {
    return { startedNotifiedAt: now, endedNotifiedAt: now };
  }
  if (period.endAt > now && current.endedNotifiedAt !== null) {
    return { startedNotifiedAt: null, endedNotifiedAt: null };
  }
  return { startedNotifiedAt: current.startedNotifiedAt, endedNotifiedAt: current.endedNotifiedAt };
}

const claimed = {
  id: windows.id,
  title: windows.title,
  startAt: windows.startAt,
  endAt: windows.endAt,
  at: windows.startAt,
};

/**
 * Claims the windows whose start or end has passed by `now` and that nobody announced yet. Rows
 * another process is claiming (or a request is editing) are skipped, not waited for, and the
 * claim sets the column the next claim looks at, so every transition is claimed once across
 * server processes. Run it in a transaction and write the events to the outbox in the same one.
 */
export async function claimTransitions(db: Database, now: Date): Promise<Announcements> {
  const dueToStart = db
    .select({ id: windows.id })
    .from(windows)
    .where(and(isNull(windows.startedNotifiedAt), lte(windows.startAt, now)))
    .for('update', { skipLocked: true });
  const started = await db
    .update(windows)
    .set({ startedNotifiedAt: now })
    .where(inArray(windows.id, dueToStart))
    .returning(claimed);
  // A window whose start and end both passed since the last tick is announced started, then ended.
  const dueToEnd = db
    .select({ id: windows.id })
    .from(windows)
    .where(
      and(
        isNull(windows.endedNotifiedAt),
        isNotNull(windows.startedNotifiedAt),
        lte(windows.endAt, now),
      ),
    )
    .for('update', { skipLocked: true });
  const ended = await db
    .update(windows)
    .set({ endedNotifiedAt: now })
    .where(inArray(windows.id, dueToEnd))
    .returning({ ...claimed, at: windows.endAt });
  const systems = await systemIdsByWindow(
    db,
    [...started, ...ended].map((row) => row.id),
  );
  const toEvents = (rows: typeof started) =>
    rows
      .sort((a, b) => a.at.getTime() - b.at.getTime())
      .map((row) => ({
        windowId: row.id,
        title: row.title,
        systemIds: systems.get(row.id) ?? [],
        startAt: row.startAt.toISOString(),
        endAt: row.endAt.toISOString(),
      }));
  return { started: toEvents(started), ended: toEvents(ended) };
}
