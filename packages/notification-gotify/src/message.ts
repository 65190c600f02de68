import type { StrategyNotification } from '@checkline/notification-node';
import { markdownToText } from '@checkline/notification-node';

/** Gotify keeps messages in its database and shows them in a phone app: keep them readable. */
export const GOTIFY_MESSAGE_LIMIT = 4_000;

/** Gotify priorities 0–10: the Android app raises a heads-up notification from 8. */
const PRIORITY_BY_IMPORTANCE: Record<string, number> = { info: 4, warning: 6, critical: 9 };

/** The `POST /message` body: plain text, priority by importance, the action as the click URL. */
export function gotifyMessage(notification: StrategyNotification) {
  const action = notification.action;
  return {
    title: notification.title.slice(0, 250),
    message: notification.body
      ? markdownToText(notification.body, {
          maxLength: GOTIFY_MESSAGE_LIMIT,
          ...(action && { action }),
        })
      : action
        ? `${action.label}: ${action.url}`
        : notification.title.slice(0, 250),
    priority: PRIORITY_BY_IMPORTANCE[notification.importance ?? 'info'] ?? 4,
    extras: {
      'client::display': { contentType: 'text/plain' },
      ...(action && { 'client::notification': { click: { url: action.url } } }),
    },
  };
}
