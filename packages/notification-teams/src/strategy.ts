import type { Egress } from '@checkline/notification-node';
import {
  callService,
  defineNotificationStrategy,
  refusedByUrlRules,
  userUrlIssues,
} from '@checkline/notification-node';
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
    validateConfig: (layer) => userUrlIssues(options.egress, layer, 'webhookUrl'),
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig }) {
      const refused = refusedByUrlRules(contact, strategyConfig, 'Teams webhook');
      if (refused) return refused;
      return callService(options.egress, SERVICE, contact, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(teamsMessage(notification)),
      });
    },
  });
}
