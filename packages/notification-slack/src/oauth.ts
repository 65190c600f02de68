import type { Egress, StrategyOAuth } from '@checkline/notification-node';
import type { SlackConfig } from './config.ts';
import { slackUrls } from './config.ts';

const text = (value: unknown, what: string): string => {
  if (typeof value !== 'string' || value === '') {
    throw new Error(`Slack's token answer has no ${what}`);
  }
  return value;
};

/**
 * Slack OAuth v2 ("Add to Slack" with a bot scope): the bot token posts, and the installing
 * user's id (`authed_user.id`) is whom it posts to. Unlinking revokes the bot token with
 * `auth.revoke`, a Web API method authenticated by the token itself (Slack has no RFC 7009
 * endpoint).
 */
export function createSlackOAuth(options: { egress: Egress }): StrategyOAuth<SlackConfig> {
  return {
    clientId: (config) => config.clientId,
    clientSecret: (config) => config.clientSecret,
    scopes: ['chat:write'],
    authorizationUrl: (config) => slackUrls(config).authorize,
    tokenUrl: (config) => slackUrls(config).token,
    extractExternalId: (token) =>
      text((token.authed_user as { id?: unknown } | undefined)?.id, 'authed_user.id'),
    // The bot token (xoxb-) at the top level; a user token would sit under authed_user.
    extractAccessToken: (token) => text(token.access_token, 'bot access_token'),
    async revoke(tokens, config) {
      const response = await options.egress.fetch(slackUrls(config).revoke, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      const body = (await response.json().catch(() => undefined)) as
        { ok?: unknown; error?: unknown } | undefined;
      if (!response.ok || body?.ok !== true) {
        const code = typeof body?.error === 'string' ? body.error.slice(0, 100) : response.status;
        throw new Error(`Slack answered auth.revoke with ${code}`);
      }
    },
  };
}
