import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import { createChannelPlugin } from '@checkline/notification-node';
import { webhookStrategy } from './strategy.ts';

export const WEBHOOK_PLUGIN_ID = 'notification-webhook';

export interface WebhookChannelOptions {
  /** The server's egress guard (WEBHOOK_ALLOW_PRIVATE decides what it lets through). */
  egress: Egress;
}

/** The webhook channel: registers the strategy `webhook` (`notification-webhook.webhook`). */
export function createWebhookChannelPlugin(options: WebhookChannelOptions): AnyPlugin {
  return createChannelPlugin({
    id: WEBHOOK_PLUGIN_ID,
    description:
      'Notifications as signed JSON requests to a URL the user or an administrator sets.',
    strategy: webhookStrategy(options.egress),
  });
}
