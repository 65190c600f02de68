import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import { createChannelPlugin } from '@checkline/notification-node';
import { createSlackStrategy } from './strategy.ts';

export const SLACK_PLUGIN_ID = 'notification-slack';

/** The Slack channel (account linking through OAuth): mount after the notification plugin. */
export function createSlackChannelPlugin(options: { egress: Egress }): AnyPlugin {
  return createChannelPlugin({
    id: SLACK_PLUGIN_ID,
    description: 'Notifications as Slack direct messages from your Slack app',
    strategy: createSlackStrategy(options),
  });
}
