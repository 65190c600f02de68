import type { Egress } from '@checkline/notification-node';
import {
  callService,
  defineNotificationStrategy,
  refusedByUrlRules,
  layerUrlIssues,
} from '@checkline/notification-node';
import { ntfyConfig, ntfyUserConfig } from './config.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';
import { ntfyMessage } from './message.ts';

const SERVICE = 'ntfy';

/** Push notifications published to each user's ntfy topic. */
export function createNtfyStrategy(options: { egress: Egress }) {
  return defineNotificationStrategy({
    id: 'ntfy',
    displayName: 'ntfy',
    description: 'Push notifications to your phone or desktop through an ntfy topic.',
    icon: 'bell-ring',
    config: ntfyConfig,
    userConfig: ntfyUserConfig,
    contactResolution: { type: 'user-config', field: 'topic' },
    validateConfig: (layer) =>
      layerUrlIssues(options.egress, layer, {
        config: ['defaultServerUrl'],
        userConfig: ['serverUrl'],
      }),
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig, userConfig }) {
      const server = (userConfig?.serverUrl ?? strategyConfig.defaultServerUrl).replace(/\/+$/, '');
      const refused = refusedByUrlRules(server, strategyConfig, 'ntfy server');
      if (refused) return refused;
      return callService(options.egress, SERVICE, `${server}/`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(userConfig?.accessToken && { authorization: `Bearer ${userConfig.accessToken}` }),
        },
        body: JSON.stringify(ntfyMessage(contact, notification)),
      });
    },
  });
}
