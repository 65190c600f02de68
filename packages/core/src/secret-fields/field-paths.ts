import type { z } from 'zod';
import type { Mark } from './schema-marks.ts';
import { hasMark } from './schema-marks.ts';

/** Stands for any element of an array or any value of a record in a path. */
export const ANY_KEY = '*';

/** A field of a schema: its keys from the root, and the schema as declared there (wrappers kept). */
export interface MarkedField {
  path: string[];
  schema: z.ZodType;
}

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

function collect(
  schema: z.ZodType,
  keyword: Mark,
  field: MarkedField,
  found: Map<string, MarkedField>,
): void {
  if (hasMark(schema, keyword)) {
    const key = field.path.join('\u0000');
    if (!found.has(key)) found.set(key, field);
    return;
  }
  const def = schema.def as unknown as Def;
  const at = (key: string, child: z.ZodType) => ({ path: [...field.path, key], schema: child });
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape ?? {}))
        collect(child, keyword, at(key, child), found);
      return;
    case 'array':
      collect(def.element!, keyword, at(ANY_KEY, def.element!), found);
      return;
    case 'record':
      collect(def.valueType!, keyword, at(ANY_KEY, def.valueType!), found);
      return;
    case 'union':
      for (const option of def.options ?? []) collect(option, keyword, field, found);
      return;
    case 'intersection':
      collect(def.left!, keyword, field, found);
      collect(def.right!, keyword, field, found);
      return;
    case 'pipe':
      collect(def.in!, keyword, field, found);
      return;
    default:
      // optional, nullable, default, prefault, readonly, catch, nonoptional wrap `innerType`.
      if (def.innerType) collect(def.innerType, keyword, field, found);
  }
}

/** The fields of `schema` that carry `keyword`, in declaration order, each once. */
export function markedFields(schema: z.ZodType, keyword: Mark): MarkedField[] {
  const found = new Map<string, MarkedField>();
  collect(schema, keyword, { path: [], schema }, found);
  return [...found.values()];
}

/**
 * Where `secret()` fields sit in `schema`: one path per secret, as keys from the root (`*` for
 * any array element or record value), in declaration order.
 */
export function secretFieldPaths(schema: z.ZodType): string[][] {
  return markedFields(schema, 'x-secret').map((field) => field.path);
}
