import type { Schema } from '@orpc/contract';
import { z } from 'zod';

type Any = z.core.$ZodType;

const never = z.never();

/** A copy of `schema` with a new definition that keeps its description and other metadata. */
const withDef = <T extends Any>(schema: T, def: Record<string, unknown>): T =>
  z.core.clone(schema, def as never, { parent: true });

const strictEach = (schemas: readonly Any[], seen: Map<Any, Any>) =>
  schemas.map((item) => strict(item, seen));

/**
 * Objects refuse unknown keys (zod strips them by default, so a misspelt field is dropped and the
 * call answers 200 having done nothing). Objects that chose their own `catchall` (loose objects)
 * and records keep their rule; an intersection is left as it is, since each side would refuse
 * the other's keys.
 */
function strict(schema: Any, seen: Map<Any, Any>): Any {
  const known = seen.get(schema);
  if (known) return known;
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  let result: Any;
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, Any>;
      result = withDef(schema, {
        ...def,
        shape: Object.fromEntries(
          Object.entries(shape).map(([key, value]) => [key, strict(value, seen)]),
        ),
        catchall: (def.catchall as Any | undefined) ?? never,
      });
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      result = withDef(schema, { ...def, innerType: strict(def.innerType as Any, seen) });
      break;
    case 'array':
      result = withDef(schema, { ...def, element: strict(def.element as Any, seen) });
      break;
    case 'union':
      result = withDef(schema, { ...def, options: strictEach(def.options as Any[], seen) });
      break;
    case 'record':
      result = withDef(schema, { ...def, valueType: strict(def.valueType as Any, seen) });
      break;
    case 'tuple':
      result = withDef(schema, {
        ...def,
        items: strictEach(def.items as Any[], seen),
        rest: def.rest ? strict(def.rest as Any, seen) : null,
      });
      break;
    case 'pipe':
      result = withDef(schema, { ...def, in: strict(def.in as Any, seen) });
      break;
    default:
      result = schema;
  }
  seen.set(schema, result);
  return result;
}

/** The input schema of a procedure with every object strict (docs/api.md, "Input rules"). */
export function strictInput<T extends Schema<unknown, unknown> | undefined>(schema: T): T {
  if (!schema || !('_zod' in (schema as object))) return schema;
  return strict(schema as unknown as Any, new Map()) as unknown as T;
}
