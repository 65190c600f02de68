import { z } from 'zod';

/** `{ownerPluginId}.{id}` */
export const StrategyIdSchema = z
  .string()
  .max(200)
  .regex(/^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/, 'Expected a strategy id, {pluginId}.{id}')
  .describe('Qualified strategy id, `{ownerPluginId}.{id}`.');

/** A JSON Schema, as generated forms read it (`x-secret`, `x-color` marks included). */
export const JsonSchemaSchema = z.record(z.string(), z.unknown());

/** A config layer as stored values: secret fields are left out; `secrets` says which are set. */
export const ConfigValuesSchema = z.record(z.string(), z.unknown());

/** Dotted paths of secret fields, each true when a value is stored. */
export const SecretStateSchema = z.record(z.string(), z.boolean());

const ConfigLayerSchema = z.enum(['config', 'userConfig', 'layoutConfig']);

/** Why a stored layer cannot be read under the strategy's current schema. */
export const ConfigProblemSchema = z.object({
  layer: ConfigLayerSchema,
  /** The failing step and its reason, never the stored values. */
  message: z.string(),
});

export const ContactResolutionTypeSchema = z.enum([
  'auth-email',
  'auth-provider',
  'user-config',
  'oauth-link',
  'custom',
]);

export const StrategySchema = z
  .object({
    strategyId: z.string(),
    ownerPluginId: z.string(),
    displayName: z.string(),
    description: z.string().nullable(),
    icon: z.string().nullable(),
    adminInstructions: z.string().nullable().describe('Markdown.'),
    userInstructions: z.string().nullable().describe('Markdown.'),
    contactResolution: ContactResolutionTypeSchema,
    /** The access rule a user needs to receive through this strategy. */
    useRule: z.string(),
    enabled: z.boolean(),
    /** A valid config is stored (every required field, secrets included). */
    configured: z.boolean(),
    config: ConfigValuesSchema.nullable(),
    configSecrets: SecretStateSchema,
    layoutConfig: ConfigValuesSchema.nullable(),
    layoutSecrets: SecretStateSchema,
    schemas: z.object({
      config: JsonSchemaSchema,
      userConfig: JsonSchemaSchema.nullable(),
      layoutConfig: JsonSchemaSchema.nullable(),
    }),
    versions: z.object({
      config: z.int().min(1),
      userConfig: z.int().min(1).nullable(),
      layoutConfig: z.int().min(1).nullable(),
    }),
    problems: z.array(ConfigProblemSchema),
  })
  .meta({ id: 'NotificationStrategy' });

export const StrategyListSchema = z.object({ strategies: z.array(StrategySchema) });

/**
 * A config layer to store. Secret fields left out keep their stored value, `null` clears one;
 * every other field is taken as given and validated against the current schema version.
 */
export const ConfigInputSchema = z.record(z.string(), z.unknown());

export const UpdateStrategyInputSchema = z.object({
  strategyId: StrategyIdSchema,
  enabled: z.boolean().optional(),
  config: ConfigInputSchema.optional(),
  layoutConfig: ConfigInputSchema.optional(),
});

export type StrategyView = z.infer<typeof StrategySchema>;
export type UpdateStrategyInput = z.infer<typeof UpdateStrategyInputSchema>;
export type ConfigProblem = z.infer<typeof ConfigProblemSchema>;
