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
    /** `oauth-link` strategies: whether an account is linked, and since when. */
    linked: z.boolean(),
    linkedAt: z.iso.datetime().nullable(),
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
export type UpdateMyChannelInput = z.infer<typeof UpdateMyChannelInputSchema>;
