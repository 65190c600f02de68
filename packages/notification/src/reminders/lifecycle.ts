import type { AlertFacts } from '@checkline/notification-node';
import type { RequestContext } from '@checkline/core';
import type { Database } from '@checkline/db';
import { and, arrayContains, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { SubscriptionEventKind } from '../db/schema.ts';
import { alerts, subscriptions } from '../db/schema.ts';
import type { SubscriptionMessage } from '../subscriptions/messages.ts';
import { teamMembers } from '../subscriptions/team-subscribers.ts';
import { alertSubject } from './subject.ts';

/** `now + seconds`, on the database's clock (every process shares it). */
export const secondsFromNow = (seconds: number) =>
  sql`clock_timestamp() + ${seconds}::int * interval '1 second'`;

/** Whether any alert of `kind` is open: events of a kind nobody is reminded of skip the rest. */
export async function hasOpenAlerts(db: Database, kind: SubscriptionEventKind): Promise<boolean> {
  const rows = await db
    .select({ id: alerts.id })
    .from(alerts)
    .where(and(isNull(alerts.resolvedAt), sql`${alerts.subject} like ${`${kind}:%`}`))
    .limit(1);
  return rows.length > 0;
}

/** Ends every open alert the facts resolve (a recovery, a resolved incident), whoever holds it. */
export async function closeAlertsEndedBy(db: Database, facts: AlertFacts): Promise<number> {
  const subject = alertSubject(facts);
  if (!subject || subject.opens) return 0;
  const closed = await db
    .update(alerts)
    .set({ resolvedAt: sql`clock_timestamp()` })
    .where(and(eq(alerts.subject, subject.subject), isNull(alerts.resolvedAt)))
    .returning({ id: alerts.id });
  return closed.length;
}

export interface AlertAudience {
  kind: SubscriptionEventKind;
  sourceRule: string;
  userIds: readonly string[];
  /** The concerned systems these users may read. */
  systemIds: readonly string[];
  groupsOfSystem: ReadonlyMap<string, ReadonlySet<string>>;
  message: SubscriptionMessage;
}

/** An alert just opened, and the users of the audience who hold it. */
export interface OpenedAlert {
  id: string;
  /** The subscriber, or the team's members among the audience. */
  holderIds: string[];
}

type SubscriptionRow = typeof subscriptions.$inferSelect;

/** Who holds an alert: one user, or a team (`members`: those of the audience). */
type Holder = { userId: string; teamId: null } | { userId: null; teamId: string };

/**
 * Opens an alert for each user of `audience`, and each team with members in it, whose subscription
 * reaching it asks for reminders or an escalation (the most specific one: system, then group, then
 * everything), unless one is already open for the same subscription and subject. A team's alert
 * is one row, whoever of its members hears. In the caller's transaction. Answers the alerts it
 * opened: their first message carries the acknowledgement link.
 */
export async function openAlerts(
  context: RequestContext,
  audience: AlertAudience,
): Promise<OpenedAlert[]> {
  const subject = alertSubject(audience.message.facts);
  if (!subject?.opens || audience.userIds.length === 0) return [];
  const groupIds = [
    ...new Set(audience.systemIds.flatMap((id) => [...(audience.groupsOfSystem.get(id) ?? [])])),
  ];
  const candidates = await context.db
    .select()
    .from(subscriptions)
    .where(
      and(
        or(inArray(subscriptions.userId, [...audience.userIds]), isNotNull(subscriptions.teamId)),
        arrayContains(subscriptions.events, sql`array[${audience.kind}]::text[]`),
        or(
          isNotNull(subscriptions.remindEverySeconds),
          isNotNull(subscriptions.escalateAfterSeconds),
        ),
        or(
          audience.systemIds.length > 0
            ? inArray(subscriptions.systemId, [...audience.systemIds])
            : undefined,
          groupIds.length > 0 ? inArray(subscriptions.groupId, groupIds) : undefined,
          and(isNull(subscriptions.systemId), isNull(subscriptions.groupId)),
        ),
      ),
    )
    .orderBy(
      asc(sql`${subscriptions.systemId} is null`),
      asc(sql`${subscriptions.groupId} is null`),
    );
  const members = await teamMembers(
    context,
    candidates.flatMap((row) => (row.teamId === null ? [] : [row.teamId])),
  );
  const heard = new Set(audience.userIds);
  // The most specific subscription per user and per team; a team only with members hearing.
  const chosen = new Map<string, { row: SubscriptionRow; holder: Holder; holderIds: string[] }>();
  for (const row of candidates) {
    if (row.userId !== null) {
      if (!chosen.has(`user:${row.userId}`)) {
        const holder: Holder = { userId: row.userId, teamId: null };
        chosen.set(`user:${row.userId}`, { row, holder, holderIds: [row.userId] });
      }
      continue;
    }
    const teamId = row.teamId!;
    const holderIds = (members.get(teamId) ?? []).filter((userId) => heard.has(userId));
    if (holderIds.length > 0 && !chosen.has(`team:${teamId}`)) {
      chosen.set(`team:${teamId}`, { row, holder: { userId: null, teamId }, holderIds });
    }
  }
  if (chosen.size === 0) return [];
  const { message } = audience;
  const opened = await context.db
    .insert(alerts)
    .values(
      [...chosen.values()].map(({ row, holder }) => ({
        subscriptionId: row.id,
        ...holder,
        subject: subject.subject,
        sourceRule: audience.sourceRule,
        systemIds: [...audience.systemIds],
        type: message.type,
        title: message.title,
        body: message.body,
        importance: message.importance,
        facts: message.facts,
        remindEverySeconds: row.remindEverySeconds,
        nextReminderAt:
          row.remindEverySeconds === null ? null : secondsFromNow(row.remindEverySeconds),
        escalateToUserId: row.escalateToUserId,
        escalateToTeamId: row.escalateToTeamId,
        escalateAt:
          row.escalateAfterSeconds === null ? null : secondsFromNow(row.escalateAfterSeconds),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: alerts.id, subscriptionId: alerts.subscriptionId });
  const holdersOf = new Map([...chosen.values()].map((entry) => [entry.row.id, entry.holderIds]));
  return opened.map((alert) => ({
    id: alert.id,
    holderIds: holdersOf.get(alert.subscriptionId) ?? [],
  }));
}
