import type { RequestContext } from '@checkline/core';
import { runInTransaction } from '@checkline/core';
import { and, asc, inArray, isNull, sql } from 'drizzle-orm';
import { alerts } from '../db/schema.ts';
import { enqueueDeliveries } from '../delivery/enqueue.ts';
import { insertNotifications } from '../inbox/service.ts';
import type { NotificationContent } from '../message-schemas.ts';
import type { NotificationState } from '../state.ts';
import { ackUrl } from './ack-link.ts';
import { secondsFromNow } from './lifecycle.ts';
import { escalationMessage, notEscalatedMessage, reminderMessage } from './messages.ts';
import { mayReadAlert } from './recipient-access.ts';
import type { ResolvedReminderSettings } from './settings.ts';
import { teamMembers } from '../subscriptions/team-subscribers.ts';

type AlertRow = typeof alerts.$inferSelect;

const open = and(isNull(alerts.resolvedAt), isNull(alerts.acknowledgedAt));
const reminderDue = sql<boolean>`coalesce(${alerts.nextReminderAt} <= clock_timestamp(), false)`;
const escalationDue = sql<boolean>`coalesce(${alerts.escalatedAt} is null and ${alerts.escalateAt} <= clock_timestamp(), false)`;

/** In the inbox and through the user's channels, in the caller's transaction. */
async function notify(
  state: NotificationState,
  context: RequestContext,
  userId: string,
  message: NotificationContent,
  alert: AlertRow,
) {
  await insertNotifications(context.db, [userId], message);
  await enqueueDeliveries(state, context, {
    kind: 'external',
    userIds: [userId],
    notification: message,
    facts: alert.facts ?? undefined,
    systemIds: alert.systemIds,
  });
}

/** The users an alert's message goes to: one person, or a team's members as they are now. */
async function peopleOf(
  context: RequestContext,
  userId: string | null,
  teamId: string | null,
): Promise<readonly string[]> {
  if (userId !== null) return [userId];
  if (teamId === null) return [];
  return (await teamMembers(context, [teamId])).get(teamId) ?? [];
}

/** Those of `userIds` who may still read everything the alert names. */
async function readersOf(
  state: NotificationState,
  context: RequestContext,
  userIds: readonly string[],
  alert: AlertRow,
): Promise<string[]> {
  const readers: string[] = [];
  for (const userId of userIds) {
    if (await mayReadAlert(state, context, userId, alert)) readers.push(userId);
  }
  return readers;
}

async function handleDue(
  state: NotificationState,
  settings: ResolvedReminderSettings,
  context: RequestContext,
  due: { alert: AlertRow; reminder: boolean; escalation: boolean },
) {
  const { alert } = due;
  const now = new Date();
  const linkMs = settings.linkDays * 24 * 60 * 60_000;
  // Each person gets their own link: a link names one alert and one person.
  const tell = async (
    userIds: readonly string[],
    message: (url: string) => NotificationContent,
  ) => {
    for (const userId of userIds) {
      const url = ackUrl(state, { alertId: alert.id, userId }, linkMs, now);
      await notify(state, context, userId, message(url), alert);
    }
  };
  // Those holding the alert who may still read it: asked once, by the reminder or the escalation.
  let holders: Promise<string[]> | undefined;
  const holdersWhoRead = () =>
    (holders ??= peopleOf(context, alert.userId, alert.teamId).then((people) =>
      readersOf(state, context, people, alert),
    ));
  const changes: Partial<Record<keyof AlertRow, unknown>> = {};
  if (due.reminder) {
    const readers = await holdersWhoRead();
    if (readers.length > 0) {
      await tell(readers, (url) => reminderMessage(alert, url, now));
      changes.remindersSent = alert.remindersSent + 1;
      changes.nextReminderAt = secondsFromNow(alert.remindEverySeconds ?? 0);
    } else {
      // Nobody holding it may read it any more: nothing more is said to anyone.
      state.logger.info({ alertId: alert.id }, 'alert closed: no holder may read it any more');
      await context.db
        .update(alerts)
        .set({ resolvedAt: sql`clock_timestamp()` })
        .where(inArray(alerts.id, [alert.id]));
      return;
    }
  }
  if (due.escalation && (alert.escalateToUserId ?? alert.escalateToTeamId)) {
    const targets = await peopleOf(context, alert.escalateToUserId, alert.escalateToTeamId);
    const readers = await readersOf(state, context, targets, alert);
    if (readers.length > 0) {
      await tell(readers, (url) => escalationMessage(alert, url, now));
    } else {
      state.logger.warn(
        { alertId: alert.id },
        'alert not escalated: no escalation contact can read it',
      );
      // Those holding the alert would otherwise count on an escalation that never happens.
      await tell(await holdersWhoRead(), (url) => notEscalatedMessage(alert, url, now));
    }
    changes.escalatedAt = sql`clock_timestamp()`;
  }
  await context.db
    .update(alerts)
    .set(changes as Partial<typeof alerts.$inferInsert>)
    .where(inArray(alerts.id, [alert.id]));
}

/**
 * One round: claims due alerts (`FOR UPDATE SKIP LOCKED`, so processes share them and none is
 * taken twice), writes each reminder or escalation to the inbox and the delivery queue and moves
 * the alert's next time, all in one transaction per batch: a crash sends nothing twice and loses
 * nothing (the delivery queue sends each delivery once). Answers how many alerts it handled.
 */
export async function sendDueReminders(
  state: NotificationState,
  settings: ResolvedReminderSettings,
): Promise<number> {
  const service = state.serviceContext();
  let handled = 0;
  for (;;) {
    const count = await runInTransaction(service, async (inner) => {
      const context: RequestContext = { ...service, ...inner };
      const rows = await context.db
        .select({ alert: alerts, reminder: reminderDue, escalation: escalationDue })
        .from(alerts)
        .where(and(open, sql`(${reminderDue} or ${escalationDue})`))
        .orderBy(asc(alerts.openedAt))
        .limit(settings.batchSize)
        .for('update', { skipLocked: true });
      for (const due of rows) await handleDue(state, settings, context, due);
      return rows.length;
    });
    handled += count;
    if (count < settings.batchSize) return handled;
  }
}
