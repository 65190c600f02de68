import type { PageScope } from '@checkline/core';
import { keysetPages, notFound } from '@checkline/core';
import type { Database } from '@checkline/db';
import { keysetOrder } from '@checkline/db';
import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { alerts } from '../db/schema.ts';
import type { Alert } from './schemas.ts';

type AlertRow = typeof alerts.$inferSelect;

const iso = (at: Date | null) => at?.toISOString() ?? null;

function toAlert(row: AlertRow): Alert {
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    teamId: row.teamId,
    type: row.type,
    title: row.title,
    systemIds: row.systemIds,
    state: row.acknowledgedAt ? 'acknowledged' : row.resolvedAt ? 'resolved' : 'open',
    openedAt: row.openedAt.toISOString(),
    remindersSent: row.remindersSent,
    nextReminderAt: iso(row.nextReminderAt),
    escalateToUserId: row.escalateToUserId,
    escalateToTeamId: row.escalateToTeamId,
    escalateAt: iso(row.escalateAt),
    escalatedAt: iso(row.escalatedAt),
    acknowledgedAt: iso(row.acknowledgedAt),
    acknowledgedBy: row.acknowledgedBy,
    resolvedAt: iso(row.resolvedAt),
  };
}

/** A person as acknowledgements see them: who they are and the teams they belong to now. */
export interface AlertHolder {
  userId: string;
  teamIds: readonly string[];
}

/**
 * The alerts a person holds: as the subscriber or a member of the subscribing team, or (once
 * escalated) as the escalation contact or a member of the escalation team.
 */
const heldBy = ({ userId, teamIds }: AlertHolder) => {
  const inTeams = (column: typeof alerts.teamId | typeof alerts.escalateToTeamId) =>
    teamIds.length > 0 ? inArray(column, [...teamIds]) : undefined;
  return or(
    eq(alerts.userId, userId),
    inTeams(alerts.teamId),
    and(
      isNotNull(alerts.escalatedAt),
      or(eq(alerts.escalateToUserId, userId), inTeams(alerts.escalateToTeamId)),
    ),
  );
};

const alertPages = keysetPages(
  'notification.alerts',
  keysetOrder([alerts.openedAt, alerts.id], 'desc'),
);

/** A page of the alerts the user holds, newest first. */
export async function listAlerts(
  db: Database,
  holder: AlertHolder,
  page: { limit: number; cursor?: string | null | undefined },
  scope: PageScope,
): Promise<{ alerts: Alert[]; nextCursor: string | null }> {
  const { items, nextCursor } = await alertPages.read(
    db,
    alerts,
    { ...page, where: heldBy(holder) },
    scope,
    (rows) => rows.map(toAlert),
  );
  return { alerts: items, nextCursor };
}

export type Acknowledgement =
  | { outcome: 'acknowledged'; alert: Alert }
  /** Acknowledged or resolved before: nothing changed. */
  | { outcome: 'closed'; alert: Alert }
  | { outcome: 'missing' };

/**
 * Acknowledges an open alert the user holds, which stops its reminders and escalation. Exactly
 * one of several concurrent acknowledgements changes it; the others answer `closed`.
 */
export async function acknowledgeAlert(
  db: Database,
  holder: AlertHolder,
  alertId: string,
): Promise<Acknowledgement> {
  const [row] = await db
    .update(alerts)
    .set({ acknowledgedAt: sql`clock_timestamp()`, acknowledgedBy: holder.userId })
    .where(
      and(
        eq(alerts.id, alertId),
        heldBy(holder),
        isNull(alerts.acknowledgedAt),
        isNull(alerts.resolvedAt),
      ),
    )
    .returning();
  if (row) return { outcome: 'acknowledged', alert: toAlert(row) };
  const existing = await findHeldAlert(db, holder, alertId);
  return existing ? { outcome: 'closed', alert: existing } : { outcome: 'missing' };
}

/** One alert the user holds; undefined for another's or a missing one. */
export async function findHeldAlert(
  db: Database,
  holder: AlertHolder,
  alertId: string,
): Promise<Alert | undefined> {
  const [row] = await db
    .select()
    .from(alerts)
    .where(and(eq(alerts.id, alertId), heldBy(holder)));
  return row ? toAlert(row) : undefined;
}

/** The API's answer: the alert as it stands; another user's or a missing one is NOT_FOUND. */
export async function acknowledgeAlertOrThrow(
  db: Database,
  holder: AlertHolder,
  alertId: string,
): Promise<Alert> {
  const answer = await acknowledgeAlert(db, holder, alertId);
  if (answer.outcome === 'missing') throw notFound('Alert', alertId);
  return answer.alert;
}
