import type { StrategyOAuth } from '@checkline/notification';
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
 * user's id (`authed_user.id`) is whom it posts to.
 */
export const slackOAuth: StrategyOAuth<SlackConfig> = {
  clientId: (config) => config.clientId,
  clientSecret: (config) => config.clientSecret,
  scopes: ['chat:write'],
  authorizationUrl: (config) => slackUrls(config).authorize,
  tokenUrl: (config) => slackUrls(config).token,
  extractExternalId: (token) =>
    text((token.authed_user as { id?: unknown } | undefined)?.id, 'authed_user.id'),
  // The bot token (xoxb-) at the top level; a user token would sit under authed_user.
  extractAccessToken: (token) => text(token.access_token, 'bot access_token'),
};
