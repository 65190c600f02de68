import type { StrategyNotification } from '@checkline/notification-node';
import { markdownToText } from '@checkline/notification-node';

/** Teams refuses messages over 28 KB; the body stays well inside it even in 3-byte characters. */
export const TEAMS_BODY_LIMIT = 8_000;
const TITLE_LIMIT = 256;

const COLOUR_BY_IMPORTANCE: Record<string, string> = {
  info: 'Accent',
  warning: 'Warning',
  critical: 'Attention',
};

/** A text run: Teams reads no Markdown in it, so monitored text cannot make links or mentions. */
const run = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'TextRun',
  text,
  ...extra,
});

/**
 * The Workflows webhook payload: one message holding an Adaptive Card (1.4) with the title, the
 * body as plain text, and the action as an `Action.OpenUrl` button.
 */
export function teamsMessage(notification: StrategyNotification) {
  const title =
    notification.title.length > TITLE_LIMIT
      ? `${notification.title.slice(0, TITLE_LIMIT - 1)}…`
      : notification.title;
  const body = notification.body
    ? markdownToText(notification.body, { maxLength: TEAMS_BODY_LIMIT })
    : '';
  const colour = COLOUR_BY_IMPORTANCE[notification.importance ?? 'info'] ?? 'Default';
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'RichTextBlock',
              inlines: [run(title, { weight: 'Bolder', size: 'Medium', color: colour })],
            },
            ...(body ? [{ type: 'RichTextBlock', inlines: [run(body)] }] : []),
          ],
          ...(notification.action && {
            actions: [
              {
                type: 'Action.OpenUrl',
                title: notification.action.label,
                url: notification.action.url,
              },
            ],
          }),
        },
      },
    ],
  };
}
