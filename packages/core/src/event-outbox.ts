import type { Database } from '@checkline/db';
import { eventOutbox } from '@checkline/db';
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { EventType } from './events.ts';

/** An outbox row this process has claimed; `attempts` (this claim's number) is its token. */
export interface ClaimedEvent {
  id: string;
  type: string;
  payload: unknown;
  attempts: number;
}

/**
 * Writes a domain event through `db`: inside the transaction of the change it announces, so it
 * exists exactly when the change does. Returns its id; hand that to `EventBus.dispatch` once the
 * transaction has committed (a background dispatcher picks it up later otherwise).
 */
export async function enqueueEvent<T>(
  db: Database,
  type: EventType<T>,
  payload: T,
): Promise<string> {
  const [row] = await db
    .insert(eventOutbox)
    .values({ type: type.name, payload: payload })
    .returning({ id: eventOutbox.id });
  return row!.id;
}

const returned = {
  id: eventOutbox.id,
  type: eventOutbox.type,
  payload: eventOutbox.payload,
  attempts: eventOutbox.attempts,
};

const waiting = and(isNull(eventOutbox.dispatchedAt), isNotNull(eventOutbox.nextAttemptAt));
const unclaimedAt = (now: Date) =>
  or(isNull(eventOutbox.claimedUntil), lte(eventOutbox.claimedUntil, now));

async function claim(db: Database, due: ReturnType<typeof selectDue>, now: Date, leaseMs: number) {
  return db
    .update(eventOutbox)
    .set({
      attempts: sql`${eventOutbox.attempts} + 1`,
      claimedUntil: new Date(now.getTime() + leaseMs),
    })
    .where(inArray(eventOutbox.id, due))
    .returning(returned);
}

function selectDue(db: Database, condition: ReturnType<typeof and>, limit?: number) {
  const query = db
    .select({ id: eventOutbox.id })
    .from(eventOutbox)
    .where(condition)
    .orderBy(asc(eventOutbox.createdAt))
    .$dynamic();
  return (limit === undefined ? query : query.limit(limit)).for('update', { skipLocked: true });
}

/**
 * Claims the waiting events among `ids` (just committed by this process) for `leaseMs`. Rows
 * another dispatcher holds are skipped, never waited for.
 */
export async function claimEventsById(
  db: Database,
  ids: readonly string[],
  options: { now: Date; leaseMs: number },
): Promise<ClaimedEvent[]> {
  if (ids.length === 0) return [];
  const due = selectDue(
    db,
    and(inArray(eventOutbox.id, [...ids]), waiting, unclaimedAt(options.now)),
  );
  const claimed = await claim(db, due, options.now, options.leaseMs);
  const order = new Map(ids.map((id, index) => [id, index]));
  return claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

export interface DueClaimOptions {
  now: Date;
  limit: number;
  leaseMs: number;
  /** A never-tried event is left this long to the process that wrote it. */
  orphanGraceMs: number;
}

/**
 * Claims events left behind: never tried for `orphanGraceMs` (their process died between commit
 * and dispatch), due for a retry, or claimed by a dispatcher whose lease lapsed.
 */
export async function claimDueEvents(
  db: Database,
  options: DueClaimOptions,
): Promise<ClaimedEvent[]> {
  const { now } = options;
  const orphanedBefore = new Date(now.getTime() - options.orphanGraceMs);
  const due = selectDue(
    db,
    and(
      waiting,
      unclaimedAt(now),
      or(
        and(eq(eventOutbox.attempts, 0), lte(eventOutbox.nextAttemptAt, orphanedBefore)),
        and(gt(eventOutbox.attempts, 0), lte(eventOutbox.nextAttemptAt, now)),
      ),
    ),
    options.limit,
  );
  return claim(db, due, now, options.leaseMs);
}

const ownClaim = (event: ClaimedEvent) =>
  and(
    eq(eventOutbox.id, event.id),
    eq(eventOutbox.attempts, event.attempts),
    isNull(eventOutbox.dispatchedAt),
  );

/** Records that every subscriber ran; false when the claim was lost (its lease lapsed meanwhile). */
export async function markDispatched(db: Database, event: ClaimedEvent, now: Date) {
  const rows = await db
    .update(eventOutbox)
    .set({ dispatchedAt: now, claimedUntil: null, lastError: null })
    .where(ownClaim(event))
    .returning({ id: eventOutbox.id });
  return rows.length > 0;
}

/** Records a failed attempt: retried at `nextAttemptAt`, or given up (kept) when it is null. */
export async function markFailed(
  db: Database,
  event: ClaimedEvent,
  failure: { error: string; nextAttemptAt: Date | null },
) {
  await db
    .update(eventOutbox)
    .set({ claimedUntil: null, lastError: failure.error, nextAttemptAt: failure.nextAttemptAt })
    .where(ownClaim(event));
}

/** Deletes events dispatched before `before`; how many. Given-up events stay for inspection. */
export async function purgeDispatchedEvents(db: Database, before: Date): Promise<number> {
  const rows = await db
    .delete(eventOutbox)
    .where(lt(eventOutbox.dispatchedAt, before))
    .returning({ id: eventOutbox.id });
  return rows.length;
}
