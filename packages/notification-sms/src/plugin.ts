import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import { createChannelPlugin } from '@checkline/notification-node';
import { createSmsStrategy } from './strategy.ts';

export const SMS_PLUGIN_ID = 'notification-sms';

/** The SMS channel (Twilio): mount after the notification plugin. */
export function createSmsChannelPlugin(options: { egress: Egress }): AnyPlugin {
  return createChannelPlugin({
    id: SMS_PLUGIN_ID,
    description: 'Notifications as text messages through Twilio',
    strategy: createSmsStrategy(options),
  });
}
