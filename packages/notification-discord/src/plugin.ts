import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import { createChannelPlugin } from '@checkline/notification-node';
import { createDiscordStrategy } from './strategy.ts';

export const DISCORD_PLUGIN_ID = 'notification-discord';

/** The Discord channel: mount after the notification plugin. */
export function createDiscordChannelPlugin(options: { egress: Egress }): AnyPlugin {
  return createChannelPlugin({
    id: DISCORD_PLUGIN_ID,
    description: 'Notifications to Discord channels through webhooks',
    strategy: createDiscordStrategy(options),
  });
}
