import type { AnyPlugin } from './plugin.ts';

/**
 * The plugins in start-up order: each after every plugin it `dependsOn`, otherwise in the order
 * given. A dependency that is not mounted, a plugin listed twice or a cycle fails start-up,
 * naming the plugins involved, rather than the first call that needs the missing one.
 */
export function orderPlugins<T extends Pick<AnyPlugin, 'id' | 'dependsOn'>>(
  plugins: readonly T[],
  /** Dependencies a test harness leaves out on purpose (never the server's). */
  absent: readonly string[] = [],
): T[] {
  const byId = new Map<string, T>();
  for (const plugin of plugins) {
    if (byId.has(plugin.id)) throw new Error(`Plugin ${plugin.id} is listed twice`);
    byId.set(plugin.id, plugin);
  }
  const ordered: T[] = [];
  const placed = new Set<string>();
  const visiting: string[] = [];

  function place(plugin: T) {
    if (placed.has(plugin.id)) return;
    const seenAt = visiting.indexOf(plugin.id);
    if (seenAt >= 0) {
      const cycle = [...visiting.slice(seenAt), plugin.id].join(' -> ');
      throw new Error(`Plugin dependency cycle: ${cycle}`);
    }
    visiting.push(plugin.id);
    for (const dependencyId of plugin.dependsOn ?? []) {
      const dependency = byId.get(dependencyId);
      if (!dependency) {
        if (absent.includes(dependencyId)) continue;
        throw new Error(`Plugin ${plugin.id} depends on ${dependencyId}, which is not mounted`);
      }
      place(dependency);
    }
    visiting.pop();
    placed.add(plugin.id);
    ordered.push(plugin);
  }

  for (const plugin of plugins) place(plugin);
  return ordered;
}
