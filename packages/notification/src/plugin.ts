import { definePlugin } from '@checkline/core';
import { NotificationStrategyRegistry } from './strategies/registry.ts';
import type { NotificationStrategy } from './strategies/strategy.ts';
import { notificationStrategyExtensionPoint } from './strategies/strategy.ts';

export const NOTIFICATION_PLUGIN_ID = 'notification';

/**
 * The notification plugin. So far it only owns the strategy extension point: plugins register
 * strategies during their register phase; the registry is frozen once start-up is done.
 */
export function createNotificationPlugin(
  strategies: NotificationStrategyRegistry = new NotificationStrategyRegistry(),
) {
  return definePlugin({
    id: NOTIFICATION_PLUGIN_ID,
    description: 'Notifications and the channels (strategies) that deliver them.',
    contract: {},
    router: {},
    accessRules: [],
    register({ pluginId, extensionPoints }) {
      extensionPoints.provide(notificationStrategyExtensionPoint, pluginId, (caller) => ({
        register(strategy) {
          if (extensionPoints.phase !== 'register') {
            throw new Error(
              `notification strategy ${caller}.${strategy.id} registered after the register phase`,
            );
          }
          // Stored untyped: only the strategy itself reads its configs with their own types.
          strategies.register(caller, strategy as unknown as NotificationStrategy);
        },
      }));
    },
    ready() {
      strategies.freeze();
    },
  });
}
