import {
  destination,
  secret,
  serviceUrlRules,
  versionedSchema,
} from '@checkline/notification-node';
import { z } from 'zod';

export const gotifyConfig = versionedSchema({
  version: 1,
  // Gotify servers are self-hosted anywhere: any host, over https, through the egress guard.
  schema: z.object(serviceUrlRules(['*'])),
});

export const gotifyUserConfig = versionedSchema({
  version: 1,
  schema: z.object({
    serverUrl: destination(z.url({ protocol: /^https?$/ })).describe(
      'Your Gotify server (https://gotify.example.com).',
    ),
    appToken: secret().describe("The token of an application created in Gotify's Apps tab."),
  }),
});
