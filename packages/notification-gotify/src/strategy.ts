import type { Egress } from '@checkline/notification';
import {
  defineNotificationStrategy,
  deliveryResultOf,
  refusedServiceUrl,
  urlIssues,
  callFailure,
} from '@checkline/notification';
import { gotifyConfig, gotifyUserConfig } from './config.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';
import { gotifyMessage } from './message.ts';

const SERVICE = 'Gotify';

/** Push messages to each user's own Gotify server through an application token. */
export function createGotifyStrategy(options: { egress: Egress }) {
  return defineNotificationStrategy({
    id: 'gotify',
    displayName: 'Gotify',
    description: 'Push messages to your own Gotify server.',
    icon: 'bell',
    config: gotifyConfig,
    userConfig: gotifyUserConfig,
    contactResolution: { type: 'user-config', field: 'serverUrl' },
    async validateConfig(layer) {
      return layer.layer === 'userConfig'
        ? urlIssues(options.egress, 'serverUrl', layer.value.serverUrl)
        : [];
    },
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig, userConfig }) {
      if (!userConfig?.appToken) {
        return { success: false, permanent: true, error: 'Gotify: no app token set' };
      }
      const server = contact.replace(/\/+$/, '');
      const refused = refusedServiceUrl(server, {
        hosts: strategyConfig.webhookHosts,
        requireHttps: strategyConfig.requireHttps,
      });
      if (refused)
        return { success: false, permanent: true, error: `Gotify server refused: ${refused}` };
      try {
        const response = await options.egress.fetch(`${server}/message`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-gotify-key': userConfig.appToken },
          body: JSON.stringify(gotifyMessage(notification)),
        });
        return await deliveryResultOf(response, SERVICE);
      } catch (error) {
        return callFailure(SERVICE, error);
      }
    },
  });
}
