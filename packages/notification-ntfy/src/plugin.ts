import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import { createChannelPlugin } from '@checkline/notification-node';
import { createNtfyStrategy } from './strategy.ts';

export const NTFY_PLUGIN_ID = 'notification-ntfy';

/** The ntfy push channel: mount after the notification plugin. */
export function createNtfyChannelPlugin(options: { egress: Egress }): AnyPlugin {
  return createChannelPlugin({
    id: NTFY_PLUGIN_ID,
    description: 'Push notifications through ntfy topics',
    strategy: createNtfyStrategy(options),
  });
}
