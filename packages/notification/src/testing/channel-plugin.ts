import type { AnyPlugin } from '@checkline/core';
import { definePlugin } from '@checkline/core';
import type { NotificationStrategy } from '@checkline/notification-node';
import { notificationStrategyExtensionPoint } from '@checkline/notification-node';

/**
 * A channel plugin for tests: registers `strategies` in its register phase, as a real channel
 * package does. Mount it after the notification plugin.
 */
export function testChannelPlugin(
  id: string,
  strategies: readonly NotificationStrategy[],
): AnyPlugin {
  return definePlugin({
    id,
    dependsOn: ['notification'],
    description: `Test channel ${id}`,
    contract: {},
    router: {},
    accessRules: [],
    register({ pluginId, extensionPoints }) {
      const registrar = extensionPoints.get(notificationStrategyExtensionPoint, pluginId);
      for (const strategy of strategies) registrar.register(strategy);
    },
  });
}
