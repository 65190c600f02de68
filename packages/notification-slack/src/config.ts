import { destination, secret, versionedSchema } from '@checkline/notification-node';
import { z } from 'zod';

export const slackConfig = versionedSchema({
  version: 1,
  schema: z.object({
    clientId: z
      .string()
      .min(1)
      .describe("The Slack app's Client ID (Basic Information → App Credentials)."),
    clientSecret: secret().describe("The Slack app's Client Secret."),
    // Users' linked tokens are sent here too: moving it unlinks them.
    baseUrl: destination(z.url({ protocol: /^https?$/ }), { usersFallBackToIt: true })
      .default('https://slack.com')
      .describe("Slack's address (OAuth pages and Web API); change it only for a test service."),
  }),
});
export type SlackConfig = z.output<typeof slackConfig.schema>;

export const slackUrls = (config: SlackConfig) => {
  const base = config.baseUrl.replace(/\/+$/, '');
  return {
    authorize: `${base}/oauth/v2/authorize`,
    token: `${base}/api/oauth.v2.access`,
    postMessage: `${base}/api/chat.postMessage`,
    revoke: `${base}/api/auth.revoke`,
  };
};
