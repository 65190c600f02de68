import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import { createChannelPlugin } from '@checkline/notification-node';
import { createTelegramStrategy } from './strategy.ts';

export const TELEGRAM_PLUGIN_ID = 'notification-telegram';

/** The Telegram channel: mount after the notification plugin. */
export function createTelegramChannelPlugin(options: { egress: Egress }): AnyPlugin {
  return createChannelPlugin({
    id: TELEGRAM_PLUGIN_ID,
    description: 'Notifications through a Telegram bot',
    strategy: createTelegramStrategy(options),
  });
}
