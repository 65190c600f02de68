import type { NotificationContent } from '../message-schemas.ts';
import type { alerts } from '../db/schema.ts';
import { titleOf } from '../subscriptions/messages.ts';

type AlertRow = typeof alerts.$inferSelect;

/** `90 s`, `5 min`, `2 h 5 min`: how long an alert has waited, for people. */
function spokenDuration(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const waited = (alert: AlertRow, now: Date) =>
  spokenDuration(Math.max(0, (now.getTime() - alert.openedAt.getTime()) / 1_000));

/**
 * A message that restates the alert: its title under `prefix`, `line` after its body, and the
 * link that acknowledges it as its action.
 */
const restatement =
  (prefix: string, line: (alert: AlertRow, now: Date) => string) =>
  (alert: AlertRow, acknowledgeUrl: string, now: Date): NotificationContent => ({
    type: alert.type,
    title: titleOf(prefix, alert.title),
    body: `${alert.body}\n\n${line(alert, now)}`,
    importance: alert.importance,
    action: { label: 'Acknowledge', url: acknowledgeUrl },
  });

/** The alert again, saying how long it has been open, with the link that stops the reminders. */
export const reminderMessage = restatement(
  'Reminder: ',
  (alert, now) =>
    `**Still open and not acknowledged** after ${waited(alert, now)} (reminder ${alert.remindersSent + 1}). Acknowledge it to stop the reminders.`,
);

/** The alert for the escalation contact: nobody acknowledged it in time. */
export const escalationMessage = restatement(
  'Escalated: ',
  (alert, now) => `**Escalated to you:** nobody acknowledged this alert in ${waited(alert, now)}.`,
);

/**
 * The alert again for the people holding it, when its escalation reached nobody: the contact was
 * deleted, left no member in its team, or may no longer read what the alert names.
 */
export const notEscalatedMessage = restatement(
  'Not escalated: ',
  (alert, now) =>
    `**Nobody was told:** this alert was due to escalate after ${waited(alert, now)} unacknowledged, but its escalation contact no longer exists or may not read it. Check the escalation of your subscription.`,
);

/**
 * The first message of an alert that will remind or escalate: the same alert, with the link that
 * stops it as its action (every channel shows the action: the e-mail's button and text, the
 * webhook's `action`, the inbox), and a line saying what the link does.
 */
export function firstAlertMessage<T extends NotificationContent>(
  message: T,
  acknowledgeUrl: string,
): T {
  return {
    ...message,
    body: `${message.body ?? ''}\n\n**Reminders are on for this alert.** Acknowledge it to stop its reminders and escalation.`,
    action: { label: 'Acknowledge', url: acknowledgeUrl },
  };
}
