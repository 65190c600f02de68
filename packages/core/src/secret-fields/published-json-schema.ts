import { z } from 'zod';

/**
 * The JSON Schema a form is generated from: the input side of `schema`, with the marks
 * (`x-secret`, `x-color`, `x-destination`) and descriptions of every field, whichever zod
 * modifiers were applied after marking. zod's converter is used because it reads metadata the
 * way zod hands it on between copies.
 */
export function publishedJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...document } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return document;
}
