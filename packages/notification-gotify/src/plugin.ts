import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import { createChannelPlugin } from '@checkline/notification-node';
import { createGotifyStrategy } from './strategy.ts';

export const GOTIFY_PLUGIN_ID = 'notification-gotify';

/** The Gotify push channel: mount after the notification plugin. */
export function createGotifyChannelPlugin(options: { egress: Egress }): AnyPlugin {
  return createChannelPlugin({
    id: GOTIFY_PLUGIN_ID,
    description: 'Push messages through Gotify servers',
    strategy: createGotifyStrategy(options),
  });
}
