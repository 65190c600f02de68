import {
  destination,
  secret,
  serviceUrlRules,
  versionedSchema,
} from '@checkline/notification-node';
import { z } from 'zod';

/** Where Workflows (Power Automate) webhooks live: tenant-specific hosts under these domains. */
export const MICROSOFT_WEBHOOK_HOSTS = [
  '*.webhook.office.com',
  '*.logic.azure.com',
  '*.powerplatform.com',
  '*.powerautomate.com',
] as const;

export const teamsConfig = versionedSchema({
  version: 1,
  schema: z.object(serviceUrlRules(MICROSOFT_WEBHOOK_HOSTS)),
});

export const teamsUserConfig = versionedSchema({
  version: 1,
  schema: z.object({
    // The URL is both where messages go and the secret that lets them in.
    webhookUrl: destination(secret(z.url({ protocol: /^https?$/ }).max(2_000))).describe(
      'The URL of your Teams Workflows "post to a chat or channel when a webhook request is received" flow.',
    ),
  }),
});
