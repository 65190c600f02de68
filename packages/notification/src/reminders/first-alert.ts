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
 * Who gets which first message: a user holding one of the alerts just `opened` (theirs, or their
 * team's) gets the message with that alert's signed acknowledgement link (a link names one alert
 * and one person, so each gets their own); everyone else shares the plain message.
 */
export function firstMessages(
  state: Pick<NotificationState, 'keyring' | 'baseUrl' | 'reminderSettings'>,
  userIds: readonly string[],
  message: SubscriptionMessage,
  opened: readonly OpenedAlert[],
  now = new Date(),
): MessageGroup[] {
  const linkMs = state.reminderSettings.linkDays * 24 * 60 * 60_000;
  const linked = new Map<string, MessageGroup>();
  for (const alert of opened) {
    for (const userId of alert.holderIds) {
      if (linked.has(userId)) continue;
      const url = ackUrl(state, { alertId: alert.id, userId }, linkMs, now);
      linked.set(userId, { userIds: [userId], message: firstAlertMessage(message, url) });
    }
  }
  const others = userIds.filter((userId) => !linked.has(userId));
  return [...(others.length > 0 ? [{ userIds: others, message }] : []), ...linked.values()];
}
