import type { AnyPlugin } from '@checkline/core';
import type { AnyContractProcedure } from '@orpc/contract';

/** REST path to its one method, as `defineContract` set them on each procedure's route. */
export function restRoutes(plugins: readonly AnyPlugin[]): Map<string, string> {
  const routes = new Map<string, string>();
  for (const plugin of plugins) {
    for (const procedure of Object.values(plugin.contract)) {
      const { path, method } = (procedure as AnyContractProcedure)['~orpc'].route;
      if (!path || !method) throw new Error(`Plugin ${plugin.id} has a procedure without a route`);
      routes.set(path, method);
    }
  }
  return routes;
}

/** REST path to the plugin and procedure it calls (what `GET /metrics` counts it under). */
export function restProceduresOf(
  plugins: readonly AnyPlugin[],
): Map<string, { plugin: string; procedure: string }> {
  const procedures = new Map<string, { plugin: string; procedure: string }>();
  for (const plugin of plugins) {
    for (const [name, procedure] of Object.entries(plugin.contract)) {
      const { path } = (procedure as AnyContractProcedure)['~orpc'].route;
      if (path) procedures.set(path, { plugin: plugin.id, procedure: name });
    }
  }
  return procedures;
}
