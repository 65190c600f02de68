import { secret, serviceUrlRules, versionedSchema } from '@checkline/notification';
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
export type TeamsConfig = z.output<typeof teamsConfig.schema>;

export const teamsUserConfig = versionedSchema({
  version: 1,
  schema: z.object({
    webhookUrl: secret(z.url({ protocol: /^https?$/ }).max(2_000)).describe(
      'The URL of your Teams Workflows "post to a chat or channel when a webhook request is received" flow.',
    ),
  }),
});
