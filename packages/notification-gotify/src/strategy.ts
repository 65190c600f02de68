import type { Egress } from '@checkline/notification-node';
import {
  callService,
  defineNotificationStrategy,
  refusedByUrlRules,
  userUrlIssues,
} from '@checkline/notification-node';
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
    validateConfig: (layer) => userUrlIssues(options.egress, layer, 'serverUrl'),
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig, userConfig }) {
      if (!userConfig?.appToken) {
        return { success: false, permanent: true, error: 'Gotify: no app token set' };
      }
      const server = contact.replace(/\/+$/, '');
      const refused = refusedByUrlRules(server, strategyConfig, 'Gotify server');
      if (refused) return refused;
      return callService(options.egress, SERVICE, `${server}/message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gotify-key': userConfig.appToken },
        body: JSON.stringify(gotifyMessage(notification)),
      });
    },
  });
}
