import type { AnyPlugin, ProcedureMeta } from '@checkline/core';
import { restMethodFor, restPathFor } from '@checkline/core';
import type { AnyContractProcedure } from '@orpc/contract';

/** REST path to its one method, derived from the contracts once. */
export function restRoutes(plugins: readonly AnyPlugin[]): Map<string, string> {
  const routes = new Map<string, string>();
  for (const plugin of plugins) {
    for (const [name, procedure] of Object.entries(plugin.contract)) {
      const meta = (procedure as AnyContractProcedure)['~orpc'].meta as ProcedureMeta;
      routes.set(restPathFor(plugin.id, name), restMethodFor(name, meta));
    }
  }
  return routes;
}
