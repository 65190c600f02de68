import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import {
  callService,
  createChannelPlugin,
  defineNotificationStrategy,
  destination,
  markdownToText,
  secret,
  versionedSchema,
} from '@checkline/notification-node';
import { z } from 'zod';

// The administrator's settings: where the service is and the token it is called with. The token
// is a secret bound to `apiBaseUrl`: changing the address makes the administrator enter it again.
const pagerConfig = versionedSchema({
  version: 1,
  schema: z.object({
    apiBaseUrl: destination(z.url({ protocol: /^https?$/ })).default('https://pager.example'),
    apiToken: secret().describe('An API token from the pager console.'),
  }),
});

// Each user's own part: the pager to page, which is also the delivery's contact.
const pagerUserConfig = versionedSchema({
  version: 1,
  schema: z.object({ pagerId: z.string().regex(/^[a-z0-9-]{3,40}$/) }),
});

export function createPagerStrategy(options: { egress: Egress }) {
  return defineNotificationStrategy({
    id: 'pager',
    displayName: 'Pager',
    description: 'Pages your on-call pager.',
    config: pagerConfig,
    userConfig: pagerUserConfig,
    contactResolution: { type: 'user-config', field: 'pagerId' },
    adminInstructions: 'Create an API token in the pager console and paste it here.',
    userInstructions: 'Enter the id of your pager.',
    send({ contact, notification, strategyConfig }) {
      return callService(options.egress, 'Pager', `${strategyConfig.apiBaseUrl}/v1/pages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${strategyConfig.apiToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          pager: contact,
          title: notification.title,
          text: notification.body ? markdownToText(notification.body, { maxLength: 1_000 }) : '',
          urgent: notification.importance === 'critical',
        }),
      });
    },
  });
}

/** The channel plugin; the server mounts it with its one egress guard. */
export function createPagerChannelPlugin(options: { egress: Egress }): AnyPlugin {
  return createChannelPlugin({
    id: 'notification-pager',
    description: 'Pages on-call pagers',
    strategy: createPagerStrategy(options),
  });
}
