import { JSON_SCHEMA_REGISTRY } from '@orpc/zod/zod4';
import { z } from 'zod';

type Mark = 'x-secret' | 'x-color';

/**
 * Carries `mark: true` into the JSON Schema of `schema`, through oRPC's converter (what the API
 * serves) and zod's own `z.toJSONSchema`. Marks sit on this very instance: refine first, then mark
 * (`secret(z.string().min(8))`), since every zod method answers a new, unmarked schema.
 */
function mark<T extends z.ZodType>(schema: T, keyword: Mark): T {
  const marked = schema.meta({ [keyword]: true }) as T;
  JSON_SCHEMA_REGISTRY.add(marked, { [keyword]: true });
  return marked;
}

export function hasMark(schema: z.ZodType, keyword: Mark): boolean {
  return (
    (JSON_SCHEMA_REGISTRY.get(schema) as Record<string, unknown> | undefined)?.[keyword] === true
  );
}

/**
 * A field that is a secret: a password input in generated forms; the config store encrypts it
 * at rest and never returns it. By default a non-empty string.
 */
export function secret<T extends z.ZodType = z.ZodString>(schema?: T): T {
  return mark(schema ?? (z.string().min(1) as unknown as T), 'x-secret');
}

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** A colour as `#rgb` or `#rrggbb`, nothing else; a colour picker in generated forms. */
export function color() {
  return mark(z.string().regex(HEX_COLOR, 'Expected a colour as #rgb or #rrggbb'), 'x-color');
}
