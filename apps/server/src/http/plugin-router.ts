import type { ProcedureMeta } from '@checkline/core';
import type { AnyProcedure, AnyRouter } from '@orpc/server';
import { isProcedure } from '@orpc/server';

/** One plugin's procedures by name, for the keyed surface's lookups. */
export function proceduresOf(router: AnyRouter): Map<string, AnyProcedure> {
  const procedures = new Map<string, AnyProcedure>();
  for (const [name, item] of Object.entries(router as Record<string, unknown>)) {
    if (isProcedure(item)) procedures.set(name, item);
  }
  return procedures;
}

export const metaOf = (procedure: AnyProcedure) => procedure['~orpc'].meta as ProcedureMeta;
