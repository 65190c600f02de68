import type { AnyPlugin } from '@checkline/core';
import { definePlugin } from '@checkline/core';
import type { Egress } from '../egress/egress.ts';
import type { NotificationStrategy } from '../strategies/strategy.ts';
import { notificationStrategyExtensionPoint } from '../strategies/strategy.ts';

/**
 * How a channel reaches its service: the egress guard's `fetch` (`createEgress`), which vets the
 * address, pins it and never follows redirects. Every channel sends through it, since several
 * take URLs from users (webhooks, push servers).
 */
export type ChannelEgress = Pick<Egress, 'fetch'>;

/**
 * A channel package's plugin: registers its one strategy through the notification strategy
 * extension point in the register phase. Mount it after the notification plugin.
 */
export function createChannelPlugin<TConfig, TUserConfig, TLayout>(definition: {
  id: string;
  description: string;
  strategy: NotificationStrategy<TConfig, TUserConfig, TLayout>;
}): AnyPlugin {
  return definePlugin({
    id: definition.id,
    description: definition.description,
    contract: {},
    router: {},
    accessRules: [],
    register({ pluginId, extensionPoints }) {
      extensionPoints
        .get(notificationStrategyExtensionPoint, pluginId)
        .register(definition.strategy);
    },
  }) as unknown as AnyPlugin;
}
