import { z } from 'zod';
import {
  ConfigInputSchema,
  ConfigProblemSchema,
  ConfigValuesSchema,
  ContactResolutionTypeSchema,
  JsonSchemaSchema,
  SecretStateSchema,
  StrategyIdSchema,
} from '../strategies/schemas.ts';

/** The caller's account link on a channel with `oauth`: never a token, only what the page shows. */
const ChannelLinkSchema = z
  .object({
    linked: z.boolean(),
    linkedAt: z.iso.datetime().nullable(),
    externalId: z
      .string()
      .nullable()
      .describe("The caller's own account id at the provider; null while not linked."),
    needsRelink: z
      .boolean()
      .describe(
        'The provider refused a token refresh: deliveries are skipped until the account is linked again.',
      ),
    linkUrl: z
      .string()
      .describe(
        'Relative path of GET /api/notification/oauth/{strategyId}/auth: link, or link again.',
      ),
  })
  .meta({ id: 'NotificationChannelLink' });

/** One channel the caller may use, with their own settings for it. */
export const ChannelSchema = z
  .object({
    strategyId: z.string(),
    displayName: z.string(),
    description: z.string().nullable(),
    icon: z.string().nullable(),
    userInstructions: z.string().nullable().describe('Markdown.'),
    contactResolution: ContactResolutionTypeSchema,
    /** The user's own switch; true until they turn the channel off. */
    enabled: z.boolean(),
    config: ConfigValuesSchema.nullable(),
    configSecrets: SecretStateSchema,
    userConfigSchema: JsonSchemaSchema.nullable(),
    /** `oauth-link` strategies: whether an account is linked, and since when (`link` tells more). */
    linked: z.boolean(),
    linkedAt: z.iso.datetime().nullable(),
    link: ChannelLinkSchema.optional().describe(
      'Channels that link an account through OAuth only; never a token.',
    ),
    problems: z.array(ConfigProblemSchema),
  })
  .meta({ id: 'NotificationChannel' });

export const ChannelListSchema = z.object({ channels: z.array(ChannelSchema) });

export const UpdateMyChannelInputSchema = z.object({
  strategyId: StrategyIdSchema,
  enabled: z.boolean().optional(),
  config: ConfigInputSchema.optional(),
});

export type Channel = z.infer<typeof ChannelSchema>;
export type ChannelLink = z.infer<typeof ChannelLinkSchema>;
export type UpdateMyChannelInput = z.infer<typeof UpdateMyChannelInputSchema>;
