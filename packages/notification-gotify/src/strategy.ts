import type { ChannelEgress } from '@checkline/notification';
import {
  defineNotificationStrategy,
  deliveryResultOf,
  readUserConfigContact,
  refusedServiceUrl,
  unreachable,
  userConfigContact,
} from '@checkline/notification';
import { gotifyConfig, gotifyContact, gotifyUserConfig } from './config.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';
import { gotifyMessage } from './message.ts';

const SERVICE = 'Gotify';

/** Push messages to each user's own Gotify server through an application token. */
export function createGotifyStrategy(options: { egress: ChannelEgress }) {
  return defineNotificationStrategy({
    id: 'gotify',
    displayName: 'Gotify',
    description: 'Push messages to your own Gotify server.',
    icon: 'bell',
    config: gotifyConfig,
    userConfig: gotifyUserConfig,
    contactResolution: userConfigContact(gotifyContact),
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig }) {
      const user = readUserConfigContact(gotifyContact, contact);
      if (!user)
        return { success: false, permanent: true, error: 'Gotify: no server and token set' };
      const server = user.serverUrl.replace(/\/+$/, '');
      const refused = refusedServiceUrl(server, {
        hosts: strategyConfig.webhookHosts,
        requireHttps: strategyConfig.requireHttps,
      });
      if (refused)
        return { success: false, permanent: true, error: `Gotify server refused: ${refused}` };
      try {
        const response = await options.egress.fetch(`${server}/message`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-gotify-key': user.appToken },
          body: JSON.stringify(gotifyMessage(notification)),
        });
        return await deliveryResultOf(response, SERVICE);
      } catch (error) {
        return unreachable(SERVICE, error);
      }
    },
  });
}
