import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import { createChannelPlugin } from '@checkline/notification-node';
import { createTeamsStrategy } from './strategy.ts';

export const TEAMS_PLUGIN_ID = 'notification-teams';

/** The Microsoft Teams channel: mount after the notification plugin. */
export function createTeamsChannelPlugin(options: { egress: Egress }): AnyPlugin {
  return createChannelPlugin({
    id: TEAMS_PLUGIN_ID,
    description: 'Notifications to Microsoft Teams through Workflows webhooks',
    strategy: createTeamsStrategy(options),
  });
}
