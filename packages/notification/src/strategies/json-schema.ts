import { ZodToJsonSchemaConverter } from '@orpc/zod/zod4';
import type { z } from 'zod';

const converter = new ZodToJsonSchemaConverter();

/**
 * The JSON Schema a form is generated from: the input side of `schema`, through the converter
 * the API documents with, so `x-secret` and `x-color` marks are in it.
 */
export function layerJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return converter.convert(schema, { strategy: 'input' })[1] as Record<string, unknown>;
}
