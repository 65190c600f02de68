import type { StrategyNotification } from '@checkline/notification-node';
import { markdownToHtml } from '@checkline/notification-node';
import { TELEGRAM_TEXT_LIMIT, toTelegramHtml } from './telegram-html.ts';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const ICON_BY_IMPORTANCE: Record<string, string> = { critical: '🔴 ', warning: '🟠 ', info: '' };

/**
 * The `sendMessage` parameters (without `chat_id`): the title in bold over the body, in HTML
 * parse mode, link previews off, the action as an inline URL button.
 */
export function telegramMessage(notification: StrategyNotification) {
  const title = `<b>${escapeHtml(notification.title.slice(0, 256))}</b>`;
  const icon = ICON_BY_IMPORTANCE[notification.importance ?? 'info'] ?? '';
  const room = TELEGRAM_TEXT_LIMIT - title.length - icon.length - 2;
  // Reducing tags only shortens the HTML, which is never shorter than the text Telegram counts.
  const body = notification.body
    ? toTelegramHtml(markdownToHtml(notification.body, { maxLength: room }))
    : '';
  return {
    text: body ? `${icon}${title}\n\n${body}` : `${icon}${title}`,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    ...(notification.action && {
      reply_markup: {
        inline_keyboard: [[{ text: notification.action.label, url: notification.action.url }]],
      },
    }),
  };
}
