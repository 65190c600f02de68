import { publishedJsonSchema } from '@checkline/core';
import type { z } from 'zod';

/** The JSON Schema a form is generated from, with every field's marks and description. */
export function layerJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return publishedJsonSchema(schema);
}
