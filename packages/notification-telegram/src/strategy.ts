import type { Egress } from '@checkline/notification-node';
import {
  callService,
  defineNotificationStrategy,
  layerUrlIssues,
} from '@checkline/notification-node';
import { telegramConfig, telegramUserConfig } from './config.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';
import { telegramMessage } from './message.ts';

const SERVICE = 'Telegram';

/** Telegram's error answers carry `parameters.retry_after` (seconds) when flood-limited. */
const retryAfterSeconds = (body: unknown) =>
  (body as { parameters?: { retry_after?: unknown } } | undefined)?.parameters?.retry_after;

/** Sends through the administrator's bot to each user's chat with it. */
export function createTelegramStrategy(options: { egress: Egress }) {
  return defineNotificationStrategy({
    id: 'telegram',
    displayName: 'Telegram',
    description: "Messages from the organisation's Telegram bot.",
    icon: 'send',
    config: telegramConfig,
    userConfig: telegramUserConfig,
    contactResolution: { type: 'user-config', field: 'chatId' },
    validateConfig: (layer) => layerUrlIssues(options.egress, layer, { config: ['apiBaseUrl'] }),
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig }) {
      const base = strategyConfig.apiBaseUrl.replace(/\/+$/, '');
      return callService(
        options.egress,
        SERVICE,
        `${base}/bot${strategyConfig.botToken}/sendMessage`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ chat_id: contact, ...telegramMessage(notification) }),
        },
        retryAfterSeconds,
      );
    },
  });
}
