import type { SubscriptionMessage } from '../subscriptions/messages.ts';
import type { NotificationState } from '../state.ts';
import { ackUrl } from './ack-link.ts';
import type { OpenedAlert } from './lifecycle.ts';
import { firstAlertMessage } from './messages.ts';

/** Some users and the one message they all get. */
export interface MessageGroup {
  userIds: string[];
  message: SubscriptionMessage;
}

/**
 * Who gets which first message: a user holding one of the alerts just `opened` gets the message
 * with that alert's signed acknowledgement link (a link names one alert and one person, so each
 * gets their own); everyone else shares the plain message.
 */
export function firstMessages(
  state: NotificationState,
  userIds: readonly string[],
  message: SubscriptionMessage,
  opened: readonly OpenedAlert[],
  now = new Date(),
): MessageGroup[] {
  const linkMs = state.reminderSettings.linkDays * 24 * 60 * 60_000;
  const holders = new Set(opened.map((alert) => alert.userId));
  const others = userIds.filter((userId) => !holders.has(userId));
  const linked = opened.map((alert) => ({
    userIds: [alert.userId],
    message: firstAlertMessage(
      message,
      ackUrl(state, { alertId: alert.id, userId: alert.userId }, linkMs, now),
    ),
  }));
  return [...(others.length > 0 ? [{ userIds: others, message }] : []), ...linked];
}
