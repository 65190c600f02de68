import type { Egress } from '@checkline/notification';
import {
  defineNotificationStrategy,
  deliveryResultOf,
  refusedServiceUrl,
  urlIssues,
  callFailure,
} from '@checkline/notification';
import { teamsMessage } from './adaptive-card.ts';
import { teamsConfig, teamsUserConfig } from './config.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';

const SERVICE = 'Microsoft Teams';

/** Posts an Adaptive Card to the Workflows webhook URL each user configured. */
export function createTeamsStrategy(options: { egress: Egress }) {
  return defineNotificationStrategy({
    id: 'teams',
    displayName: 'Microsoft Teams',
    description: 'Adaptive Cards posted to a Teams chat or channel through a Workflows webhook.',
    icon: 'message-square',
    config: teamsConfig,
    userConfig: teamsUserConfig,
    contactResolution: { type: 'user-config', field: 'webhookUrl' },
    async validateConfig(layer) {
      return layer.layer === 'userConfig'
        ? urlIssues(options.egress, 'webhookUrl', layer.value.webhookUrl)
        : [];
    },
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig }) {
      const refused = refusedServiceUrl(contact, {
        hosts: strategyConfig.webhookHosts,
        requireHttps: strategyConfig.requireHttps,
      });
      if (refused) {
        return { success: false, permanent: true, error: `Teams webhook refused: ${refused}` };
      }
      try {
        const response = await options.egress.fetch(contact, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(teamsMessage(notification)),
        });
        return await deliveryResultOf(response, SERVICE);
      } catch (error) {
        return callFailure(SERVICE, error);
      }
    },
  });
}
