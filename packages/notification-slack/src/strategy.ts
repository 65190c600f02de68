import type { Egress } from '@checkline/notification-node';
import {
  defineNotificationStrategy,
  escapeChat,
  slackBlocks,
  callFailure,
  layerUrlIssues,
} from '@checkline/notification-node';
import { slackConfig, slackUrls } from './config.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';
import { createSlackOAuth } from './oauth.ts';
import { slackResult } from './slack-answer.ts';

/** Slack's cap on a section's text; the body's section stays within it. */
export const SLACK_SECTION_LIMIT = 3_000;

const EMOJI_BY_IMPORTANCE: Record<string, string> = {
  critical: ':red_circle: ',
  warning: ':large_orange_circle: ',
  info: '',
};

/** Direct messages from the organisation's Slack app to each user who linked their account. */
export function createSlackStrategy(options: { egress: Egress }) {
  return defineNotificationStrategy({
    id: 'slack',
    displayName: 'Slack',
    description: "Direct messages from the organisation's Slack app.",
    icon: 'slack',
    config: slackConfig,
    contactResolution: { type: 'oauth-link' },
    validateConfig: (layer) => layerUrlIssues(options.egress, layer, { config: ['baseUrl'] }),
    oauth: createSlackOAuth(options),
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig, accessToken }) {
      if (!accessToken) {
        return { success: false, permanent: true, error: 'Slack: the account link has no token' };
      }
      const fallback = `${EMOJI_BY_IMPORTANCE[notification.importance ?? 'info'] ?? ''}${escapeChat(notification.title)}`;
      try {
        const response = await options.egress.fetch(slackUrls(strategyConfig).postMessage, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'content-type': 'application/json; charset=utf-8',
          },
          body: JSON.stringify({
            channel: contact,
            // The notification text of phones and screen readers; blocks are what is shown.
            text: fallback.slice(0, 3_000),
            blocks: slackBlocks({
              title: notification.title,
              ...(notification.body !== undefined && { body: notification.body }),
              ...(notification.action && { action: notification.action }),
              maxLength: SLACK_SECTION_LIMIT,
            }),
            unfurl_links: false,
            unfurl_media: false,
          }),
        });
        return await slackResult(response);
      } catch (error) {
        return callFailure('Slack', error);
      }
    },
  });
}
