import type { Egress } from '@checkline/notification';
import {
  defineNotificationStrategy,
  deliveryResultOf,
  refusedServiceUrl,
  urlIssues,
  callFailure,
} from '@checkline/notification';
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
    async validateConfig(layer) {
      return layer.layer === 'userConfig'
        ? urlIssues(options.egress, 'serverUrl', layer.value.serverUrl)
        : [];
    },
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig, userConfig }) {
      const server = (userConfig?.serverUrl ?? strategyConfig.defaultServerUrl).replace(/\/+$/, '');
      const refused = refusedServiceUrl(server, {
        hosts: strategyConfig.webhookHosts,
        requireHttps: strategyConfig.requireHttps,
      });
      if (refused)
        return { success: false, permanent: true, error: `ntfy server refused: ${refused}` };
      try {
        const response = await options.egress.fetch(`${server}/`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(userConfig?.accessToken && { authorization: `Bearer ${userConfig.accessToken}` }),
          },
          body: JSON.stringify(ntfyMessage(contact, notification)),
        });
        return await deliveryResultOf(response, SERVICE);
      } catch (error) {
        return callFailure(SERVICE, error);
      }
    },
  });
}
