import type { StrategyNotification } from '@checkline/notification-node';
import { markdownToText } from '@checkline/notification-node';

/** Discord's limits: embed description 4096 characters, title 256. */
export const DISCORD_DESCRIPTION_LIMIT = 4_096;
const TITLE_LIMIT = 256;

/** Red for critical, amber for warning, blue otherwise. */
export const COLOUR_BY_IMPORTANCE: Record<string, number> = {
  info: 0x3b82f6,
  warning: 0xf59e0b,
  critical: 0xdc2626,
};

/** Text that Discord shows as written: its Markdown and mention syntax backslash-escaped. */
const escapeDiscord = (text: string) => text.replace(/[\\*_~`|>#\-[\]()<@]/g, '\\$&');

const shorten = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

/** A Markdown link whose label and URL cannot break out of it. */
const link = (label: string, url: string) =>
  `[${escapeDiscord(label)}](${url.replace(/[()\s]/g, encodeURIComponent)})`;

/**
 * The webhook message: no content, one embed coloured by importance with the body as escaped
 * text and the action as the title's link and a closing link; no mention may ping anyone.
 */
export function discordMessage(notification: StrategyNotification) {
  const action = notification.action;
  const actionLine = action ? `\n\n${link(action.label, action.url)}` : '';
  // Escaping can double the text: cut the plain text first, then escape, then cut safely.
  const room = DISCORD_DESCRIPTION_LIMIT - actionLine.length;
  const plain = notification.body ? markdownToText(notification.body, { maxLength: room }) : '';
  let escaped = escapeDiscord(plain);
  if (escaped.length > room) escaped = `${escaped.slice(0, room - 1).replace(/\\$/, '')}…`;
  return {
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: shorten(notification.title, TITLE_LIMIT),
        ...(action && { url: action.url }),
        description: (escaped + actionLine).trim() || undefined,
        color: COLOUR_BY_IMPORTANCE[notification.importance ?? 'info'] ?? COLOUR_BY_IMPORTANCE.info,
      },
    ],
  };
}
