import {
  destination,
  secret,
  serviceUrlRules,
  versionedSchema,
} from '@checkline/notification-node';
import { z } from 'zod';

export const ntfyConfig = versionedSchema({
  version: 1,
  schema: z.object({
    // Users who name no server are sent here with their topic and token.
    defaultServerUrl: destination(z.url({ protocol: /^https?$/ }), { usersFallBackToIt: true })
      .default('https://ntfy.sh')
      .describe('The ntfy server of users who name none.'),
    // Self-hosted ntfy servers live anywhere: any host, over https, through the egress guard.
    ...serviceUrlRules(['*']),
  }),
});

const topic = z.string().regex(/^[-_A-Za-z0-9]{1,64}$/, 'Expected 1 to 64 letters, digits, - or _');

export const ntfyUserConfig = versionedSchema({
  version: 1,
  schema: z.object({
    serverUrl: destination(z.url({ protocol: /^https?$/ }))
      .optional()
      .describe('Your ntfy server; leave empty for the default one.'),
    topic: secret(topic).describe(
      'The topic your ntfy app subscribes to. Anyone who knows it can read it: pick a long random one.',
    ),
    accessToken: secret()
      .optional()
      .describe('An access token (tk_...) when the topic is protected.'),
  }),
});
