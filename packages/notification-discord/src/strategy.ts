import type { Egress } from '@checkline/notification-node';
import {
  callService,
  defineNotificationStrategy,
  refusedByUrlRules,
  userUrlIssues,
} from '@checkline/notification-node';
import { discordConfig, discordUserConfig } from './config.ts';
import { discordMessage } from './embed.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';

const SERVICE = 'Discord';

/** Discord's 429 body says how long to wait, in (fractional) seconds. */
const retryAfterSeconds = (body: unknown) =>
  (body as { retry_after?: unknown } | undefined)?.retry_after;

/** Posts an embed to the Discord webhook each user configured. */
export function createDiscordStrategy(options: { egress: Egress }) {
  return defineNotificationStrategy({
    id: 'discord',
    displayName: 'Discord',
    description: 'Embeds posted to a Discord channel through its webhook.',
    icon: 'message-circle',
    config: discordConfig,
    userConfig: discordUserConfig,
    contactResolution: { type: 'user-config', field: 'webhookUrl' },
    validateConfig: (layer) => userUrlIssues(options.egress, layer, 'webhookUrl'),
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig }) {
      const refused = refusedByUrlRules(contact, strategyConfig, 'Discord webhook');
      if (refused) return refused;
      const url = new URL(contact);
      url.searchParams.set('wait', 'true');
      return callService(
        options.egress,
        SERVICE,
        url.toString(),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(discordMessage(notification)),
        },
        retryAfterSeconds,
      );
    },
  });
}
