import type { z } from 'zod';

/** Wrappers that leave the value's shape as it is: the schema inside decides. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch']);
const TEXT = new Set(['string', 'enum', 'literal', 'template_literal']);

interface SchemaDefinition {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

const definitionOf = (schema: z.ZodType) =>
  (schema as unknown as { _zod: { def: SchemaDefinition } })._zod.def;

/** The definition under optional/default/... wrappers and the input side of pipes (transforms). */
function unwrapped(schema: z.ZodType): SchemaDefinition {
  let definition = definitionOf(schema);
  for (let depth = 0; depth < 20; depth++) {
    const inner = WRAPPERS.has(definition.type)
      ? definition.innerType
      : definition.type === 'pipe'
        ? definition.in
        : undefined;
    if (!inner) break;
    definition = definitionOf(inner);
  }
  return definition;
}

/**
 * Why `field` of `userConfig` cannot hold a user's contact, or undefined when it can: the schema
 * must be an object with that field, and the field text. Checked when a strategy registers, so a
 * misspelt field fails start-up rather than skipping every delivery.
 */
export function contactFieldProblem(userConfig: z.ZodType, field: string): string | undefined {
  const config = unwrapped(userConfig);
  if (config.type !== 'object' || !config.shape) return 'needs a userConfig that is an object';
  const fieldSchema = Object.hasOwn(config.shape, field) ? config.shape[field] : undefined;
  if (!fieldSchema) {
    const known = Object.keys(config.shape).join(', ') || 'none';
    return `names field ${field}, which userConfig does not have (its fields: ${known})`;
  }
  const type = unwrapped(fieldSchema).type;
  return TEXT.has(type) ? undefined : `names field ${field}, which is not text but ${type}`;
}
