import type { ChannelEgress } from '@checkline/notification';
import {
  defineNotificationStrategy,
  deliveryResultOf,
  readUserConfigContact,
  refusedServiceUrl,
  unreachable,
  userConfigContact,
} from '@checkline/notification';
import { ntfyConfig, ntfyContact, ntfyUserConfig } from './config.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';
import { ntfyMessage } from './message.ts';

const SERVICE = 'ntfy';

/** Push notifications published to each user's ntfy topic. */
export function createNtfyStrategy(options: { egress: ChannelEgress }) {
  return defineNotificationStrategy({
    id: 'ntfy',
    displayName: 'ntfy',
    description: 'Push notifications to your phone or desktop through an ntfy topic.',
    icon: 'bell-ring',
    config: ntfyConfig,
    userConfig: ntfyUserConfig,
    contactResolution: userConfigContact(ntfyContact),
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig }) {
      const user = readUserConfigContact(ntfyContact, contact);
      if (!user) return { success: false, permanent: true, error: 'ntfy: no valid topic set' };
      const server = (user.serverUrl ?? strategyConfig.defaultServerUrl).replace(/\/+$/, '');
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
            ...(user.accessToken && { authorization: `Bearer ${user.accessToken}` }),
          },
          body: JSON.stringify(ntfyMessage(user.topic, notification)),
        });
        return await deliveryResultOf(response, SERVICE);
      } catch (error) {
        return unreachable(SERVICE, error);
      }
    },
  });
}
