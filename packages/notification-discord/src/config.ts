import {
  destination,
  secret,
  serviceUrlRules,
  versionedSchema,
} from '@checkline/notification-node';
import { z } from 'zod';

export const DISCORD_WEBHOOK_HOSTS = [
  'discord.com',
  'discordapp.com',
  'ptb.discord.com',
  'canary.discord.com',
] as const;

export const discordConfig = versionedSchema({
  version: 1,
  schema: z.object(serviceUrlRules(DISCORD_WEBHOOK_HOSTS)),
});

export const discordUserConfig = versionedSchema({
  version: 1,
  schema: z.object({
    // The URL is both where messages go and the secret that lets them in.
    webhookUrl: destination(secret(z.url({ protocol: /^https?$/ }).max(2_000))).describe(
      'The webhook URL of the Discord channel (Channel settings → Integrations → Webhooks).',
    ),
  }),
});
