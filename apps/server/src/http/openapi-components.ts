import type { AnyPlugin } from '@checkline/core';
import type { AnyContractProcedure } from '@orpc/contract';
import { z } from 'zod';

type ZodNode = z.core.$ZodType;

const isZod = (value: unknown): value is ZodNode =>
  typeof value === 'object' && value !== null && '_zod' in value;

/** The zod schemas a schema is made of (object fields, items, options, wrapped types). */
function childrenOf(schema: ZodNode): ZodNode[] {
  const children: ZodNode[] = [];
  for (const [key, value] of Object.entries(schema._zod.def)) {
    if (key === 'getter') continue; // lazy: its target is reached where it is defined
    if (isZod(value)) children.push(value);
    else if (Array.isArray(value)) children.push(...value.filter(isZod));
    else if (key === 'shape' && value && typeof value === 'object') {
      children.push(...Object.values(value as Record<string, unknown>).filter(isZod));
    }
  }
  return children;
}

/**
 * Every schema the contracts use that a plugin registered under an id
 * (`XSchema.register(z.globalRegistry, { id: 'X' })`): each becomes a named component of the
 * OpenAPI document and a named type of generated clients. Two schemas under one id throw.
 */
export function namedSchemasOf(plugins: readonly AnyPlugin[]): Map<string, ZodNode> {
  const named = new Map<string, ZodNode>();
  const seen = new Set<ZodNode>();
  const visit = (schema: ZodNode) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    const id = z.globalRegistry.get(schema)?.id;
    if (typeof id === 'string') {
      const other = named.get(id);
      if (other && other !== schema) throw new Error(`Two schemas are registered as "${id}"`);
      named.set(id, schema);
    }
    childrenOf(schema).forEach(visit);
  };
  for (const plugin of plugins) {
    for (const procedure of Object.values(plugin.contract)) {
      const def = (procedure as AnyContractProcedure)['~orpc'];
      for (const schema of [def.inputSchema, def.outputSchema]) if (isZod(schema)) visit(schema);
    }
  }
  return named;
}
