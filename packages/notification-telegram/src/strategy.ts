import type { Egress } from '@checkline/notification';
import { defineNotificationStrategy, deliveryResultOf, callFailure } from '@checkline/notification';
import { telegramConfig, telegramUserConfig } from './config.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';
import { telegramMessage } from './message.ts';

const SERVICE = 'Telegram';

/** Telegram's error answers carry `parameters.retry_after` (seconds) when flood-limited. */
async function bodyRetryAfterMs(response: Response): Promise<number | undefined> {
  if (response.status !== 429) return undefined;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { parameters?: { retry_after?: unknown } } | undefined;
  const seconds = body?.parameters?.retry_after;
  return typeof seconds === 'number' && seconds >= 0 ? Math.ceil(seconds * 1_000) : undefined;
}

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
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig }) {
      const base = strategyConfig.apiBaseUrl.replace(/\/+$/, '');
      try {
        const response = await options.egress.fetch(
          `${base}/bot${strategyConfig.botToken}/sendMessage`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ chat_id: contact, ...telegramMessage(notification) }),
          },
        );
        const retryAfterMs = await bodyRetryAfterMs(response);
        return await deliveryResultOf(response, SERVICE, {
          ...(retryAfterMs !== undefined && { retryAfterMs }),
        });
      } catch (error) {
        return callFailure(SERVICE, error);
      }
    },
  });
}
