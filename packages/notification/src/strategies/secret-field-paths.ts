import type { z } from 'zod';
import { hasMark } from './schema-marks.ts';

/** Stands for any element of an array or any value of a record in a path. */
export const ANY_KEY = '*';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: readonly z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  in?: z.ZodType;
}

function collect(schema: z.ZodType, path: string[], found: Map<string, string[]>): void {
  if (hasMark(schema, 'x-secret')) {
    found.set(path.join('\u0000'), path);
    return;
  }
  const def = schema.def as unknown as Def;
  switch (def.type) {
    case 'object':
      for (const [key, field] of Object.entries(def.shape ?? {}))
        collect(field, [...path, key], found);
      return;
    case 'array':
      collect(def.element!, [...path, ANY_KEY], found);
      return;
    case 'record':
      collect(def.valueType!, [...path, ANY_KEY], found);
      return;
    case 'union':
      for (const option of def.options ?? []) collect(option, path, found);
      return;
    case 'intersection':
      collect(def.left!, path, found);
      collect(def.right!, path, found);
      return;
    case 'pipe':
      collect(def.in!, path, found);
      return;
    default:
      // optional, nullable, default, prefault, readonly, catch, nonoptional wrap `innerType`.
      if (def.innerType) collect(def.innerType, path, found);
  }
}

/**
 * Where `secret()` fields sit in `schema`: one path per secret, as keys from the root (`*` for
 * any array element or record value), in declaration order.
 */
export function secretFieldPaths(schema: z.ZodType): string[][] {
  const found = new Map<string, string[]>();
  collect(schema, [], found);
  return [...found.values()];
}
