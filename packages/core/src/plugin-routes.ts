import type { AnyPlugin, PluginRoute } from './plugin.ts';

/** A plugin's raw route where the server mounts it: `path` is absolute. */
export interface MountedRoute extends PluginRoute {
  pluginId: string;
}

const SEGMENT = /^[a-z][a-z0-9-]*$/;

/** `/api/{routeSegment}`, the prefix of every raw route of `plugin` (its id unless it names one). */
export function routeBaseOf(plugin: Pick<AnyPlugin, 'id' | 'routeSegment'>): string {
  return `/api/${plugin.routeSegment ?? plugin.id}`;
}

/**
 * Problems of one plugin's route declarations on their own: the segment must start with `{id}-`;
 * a path is relative (`/heartbeat/:token`) with no dot segments. Under `/api/{id}` the oRPC
 * surface answers `/api/{id}/{procedure}`, so there a route of one segment must be fixed and not
 * a procedure's name.
 */
export function routeDeclarationProblems(
  plugin: Pick<AnyPlugin, 'id' | 'routeSegment' | 'routes' | 'contract'>,
): string[] {
  const problems: string[] = [];
  const segment = plugin.routeSegment;
  if (segment !== undefined && (!SEGMENT.test(segment) || !segment.startsWith(`${plugin.id}-`))) {
    problems.push(`route segment "${segment}" must start with "${plugin.id}-"`);
  }
  for (const route of plugin.routes ?? []) {
    const parts = route.path.split('/');
    const first = parts[1] ?? '';
    if (!route.path.startsWith('/') || first === '') {
      problems.push(`route ${route.path} must start with a segment ("/name/...")`);
    } else if (parts.some((part) => part === '.' || part === '..')) {
      problems.push(`route ${route.path} must not hold dot segments`);
    } else if (segment === undefined && parts.length === 2 && first.startsWith(':')) {
      problems.push(`route ${route.path} would answer every procedure call`);
    } else if (
      segment === undefined &&
      parts.length === 2 &&
      Object.hasOwn(plugin.contract, first)
    ) {
      problems.push(`route ${route.path} takes the name of procedure ${first}`);
    }
  }
  return problems;
}

/**
 * Every plugin's raw routes under its own prefix, `/api/{routeSegment}{path}`, with the paths of
 * their API reference prefixed alike. Refuses a plugin whose segment is another plugin's id or
 * segment, so no plugin can answer under another's prefix.
 */
export function mountedRoutes(plugins: readonly AnyPlugin[]): MountedRoute[] {
  const owners = new Map<string, string>(plugins.map((plugin) => [plugin.id, plugin.id]));
  const mounted: MountedRoute[] = [];
  for (const plugin of plugins) {
    const problems = routeDeclarationProblems(plugin);
    if (problems.length > 0) throw new Error(`Plugin ${plugin.id}: ${problems.join('; ')}`);
    if (plugin.routeSegment !== undefined) {
      const owner = owners.get(plugin.routeSegment);
      if (owner !== undefined && owner !== plugin.id) {
        throw new Error(
          `Plugin ${plugin.id} mounts its routes under /api/${plugin.routeSegment}, which belongs to ${owner}`,
        );
      }
      owners.set(plugin.routeSegment, plugin.id);
    }
    const base = routeBaseOf(plugin);
    for (const route of plugin.routes ?? []) {
      const { openapi } = route;
      mounted.push({
        ...route,
        pluginId: plugin.id,
        path: `${base}${route.path}`,
        ...(openapi && { openapi: () => prefixedPaths(base, openapi()) }),
      });
    }
  }
  return mounted;
}

function prefixedPaths<T>(base: string, paths: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(paths).map(([path, item]) => [`${base}${path}`, item]));
}
