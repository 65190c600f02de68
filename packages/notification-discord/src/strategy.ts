import type { Egress } from '@checkline/notification';
import {
  defineNotificationStrategy,
  deliveryResultOf,
  refusedServiceUrl,
  urlIssues,
  callFailure,
} from '@checkline/notification';
import { discordConfig, discordUserConfig } from './config.ts';
import { discordMessage } from './embed.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';

const SERVICE = 'Discord';

/** Discord's 429 body says how long to wait, in (fractional) seconds. */
async function bodyRetryAfterMs(response: Response): Promise<number | undefined> {
  if (response.status !== 429) return undefined;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { retry_after?: unknown } | undefined;
  const seconds = body?.retry_after;
  return typeof seconds === 'number' && seconds >= 0 ? Math.ceil(seconds * 1_000) : undefined;
}

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
        return { success: false, permanent: true, error: `Discord webhook refused: ${refused}` };
      }
      const url = new URL(contact);
      url.searchParams.set('wait', 'true');
      try {
        const response = await options.egress.fetch(url.toString(), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(discordMessage(notification)),
        });
        const retryAfterMs = await bodyRetryAfterMs(response);
        return await deliveryResultOf(response, SERVICE, {
          ...(retryAfterMs !== undefined && { retryAfterMs }),
        });
      } catch (error) {
        return callFailure(SERVICE, error);
      }
    },
  });
}
