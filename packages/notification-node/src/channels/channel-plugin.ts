import type { AnyPlugin } from '@checkline/core';
import { definePlugin } from '@checkline/core';
import type { NotificationStrategy } from '../strategies/strategy.ts';
import { notificationStrategyExtensionPoint } from '../strategies/strategy.ts';

/**
 * A channel package's plugin: registers its one strategy through the notification strategy
 * extension point in the register phase. Mount it after the notification plugin.
 */
export function createChannelPlugin<TConfig, TUserConfig, TLayout>(definition: {
  id: string;
  description: string;
  strategy: NotificationStrategy<TConfig, TUserConfig, TLayout>;
  /** Releases what the strategy holds open (pooled connections) as the server stops. */
  stop?: () => void | Promise<void>;
}): AnyPlugin {
  return definePlugin({
    id: definition.id,
    dependsOn: ['notification'],
    description: definition.description,
    contract: {},
    router: {},
    accessRules: [],
    register({ pluginId, extensionPoints }) {
      extensionPoints
        .get(notificationStrategyExtensionPoint, pluginId)
        .register(definition.strategy);
    },
    ...(definition.stop && { stop: definition.stop }),
  });
}
