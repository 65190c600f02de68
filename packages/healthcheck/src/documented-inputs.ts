import { boundSecretFields } from '@checkline/core';
import { z } from 'zod';
import type { HealthCheckTypeRegistry } from './check-type.ts';
import { CreateHealthCheckInputSchema, UpdateHealthCheckInputSchema } from './schemas.ts';

type RegisteredType = ReturnType<HealthCheckTypeRegistry['list']>[number];

/** Registered configs are strict `z.object`s (`withStrictConfig`). */
const configOf = (type: RegisteredType) => type.config as z.ZodObject;

/** A config that `{}` satisfies may be left out of a create: the server fills `{}`. */
const acceptsEmpty = (type: RegisteredType) => configOf(type).safeParse({}).success;

/** On update, a secret field sent without a value keeps the stored one (`keepStoredSecrets`). */
function updateConfigOf(type: RegisteredType): z.ZodObject {
  const config = configOf(type);
  const secrets = boundSecretFields(config)
    .secrets.filter((path) => path.length === 1 && path[0]! in config.shape)
    .map((path) => path[0]!);
  if (secrets.length === 0) return config;
  const mask: Record<string, true> = Object.fromEntries(secrets.map((key) => [key, true]));
  return config.partial(mask as never);
}

const variantMeta = (type: RegisteredType, operation: string) => ({
  title: `${operation} (${type.qualifiedId})`,
  description: `A ${type.displayName} check: ${type.description ?? type.displayName}`,
});

/**
 * The inputs of `createHealthCheck` and `updateHealthCheck` as the API reference shows them: one
 * variant per registered check type (plugins' types included), told apart by `type`, each with
 * that type's config schema, so generated clients type `config` by `type`. The procedures keep
 * validating `config` against the type the server finds (`parseCheckConfig`).
 */
export function documentedCheckInputs(types: HealthCheckTypeRegistry): Record<string, z.ZodType> {
  const registered = types.list();
  const [first, ...rest] = registered;
  if (!first) return {};
  const createVariant = (type: RegisteredType) =>
    CreateHealthCheckInputSchema.extend({
      type: z.literal(type.qualifiedId),
      config: acceptsEmpty(type) ? configOf(type).optional() : configOf(type),
    })
      .strict()
      .meta(variantMeta(type, 'Create'));
  const updateVariant = (type: RegisteredType) =>
    UpdateHealthCheckInputSchema.extend({
      type: z.literal(type.qualifiedId),
      config: updateConfigOf(type).optional(),
    })
      .strict()
      .meta(variantMeta(type, 'Update'));
  const sameType = UpdateHealthCheckInputSchema.omit({ type: true })
    .extend({
      config: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("The config of the check's current type, checked against that type's schema."),
    })
    .strict()
    .meta({
      title: 'Update (same type)',
      description: 'Changes a check without changing its type.',
    });
  return {
    createHealthCheck: z.discriminatedUnion('type', [
      createVariant(first),
      ...rest.map(createVariant),
    ]),
    updateHealthCheck: z.union([updateVariant(first), ...rest.map(updateVariant), sameType]),
  };
}
