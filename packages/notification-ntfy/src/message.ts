import type { StrategyNotification } from '@checkline/notification-node';
import { fitUtf8, markdownToText } from '@checkline/notification-node';

/** ntfy turns messages over 4 096 bytes into attachments: stay under it. */
export const NTFY_MESSAGE_BYTES = 4_096;

/** ntfy priorities: 3 default, 4 high, 5 max (urgent, breaks through Do Not Disturb on Android). */
export const PRIORITY_BY_IMPORTANCE: Record<string, number> = { info: 3, warning: 4, critical: 5 };
const TAG_BY_IMPORTANCE: Record<string, string> = {
  info: 'information_source',
  warning: 'warning',
  critical: 'rotating_light',
};

/** The JSON publish request: plain text, priority by importance, the action as the click URL. */
export function ntfyMessage(topic: string, notification: StrategyNotification) {
  const importance = notification.importance ?? 'info';
  const body = notification.body ?? '';
  const action = notification.action;
  return {
    topic,
    title: notification.title.slice(0, 250),
    message: body
      ? fitUtf8((maxLength) => markdownToText(body, { maxLength }), NTFY_MESSAGE_BYTES)
      : notification.title.slice(0, 250),
    priority: PRIORITY_BY_IMPORTANCE[importance] ?? 3,
    tags: [TAG_BY_IMPORTANCE[importance] ?? 'information_source'],
    markdown: false,
    ...(action && {
      click: action.url,
      actions: [{ action: 'view', label: action.label.slice(0, 40), url: action.url, clear: true }],
    }),
  };
}
