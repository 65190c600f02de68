import { destination, secret, versionedSchema } from '@checkline/notification-node';
import { z } from 'zod';

export const telegramConfig = versionedSchema({
  version: 1,
  schema: z.object({
    botToken: secret(
      z.string().regex(/^\d+:[\w-]+$/, 'Expected a bot token as BotFather gives it'),
    ).describe('The bot token from @BotFather (123456:ABC-DEF...).'),
    apiBaseUrl: destination(z.url({ protocol: /^https?$/ }))
      .default('https://api.telegram.org')
      .describe('The Bot API address; change it only for a self-hosted Bot API server.'),
  }),
});

export const telegramUserConfig = versionedSchema({
  version: 1,
  schema: z.object({
    chatId: z
      .string()
      .regex(
        /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/,
        'Expected a numeric chat id or @channelname',
      )
      .describe('Your chat id with the bot (a number), or @channelname for a channel.'),
  }),
});
