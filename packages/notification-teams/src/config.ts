import { secret, versionedSchema } from '@checkline/notification';
import { z } from 'zod';

/** Where Workflows (Power Automate) webhooks live: tenant-specific hosts under these domains. */
export const MICROSOFT_WEBHOOK_HOSTS = [
  '*.webhook.office.com',
  '*.logic.azure.com',
  '*.powerplatform.com',
  '*.powerautomate.com',
] as const;

const hostPattern = z
  .string()
  .regex(/^(\*|(\*\.)?[a-z0-9.-]+(:\d+)?)$/i, 'Expected a host, *.domain, or * for any host');

export const teamsConfig = versionedSchema({
  version: 1,
  schema: z.object({
    webhookHosts: z
      .array(hostPattern)
      .min(1)
      .default([...MICROSOFT_WEBHOOK_HOSTS])
      .describe('Hosts a user webhook URL may point at: exact, *.domain, or * for any host.'),
    requireHttps: z
      .boolean()
      .default(true)
      .describe(
        'Refuse webhook URLs that are not https (switch off for a local test service only).',
      ),
  }),
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
