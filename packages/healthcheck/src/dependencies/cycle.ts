/** An edge: `systemId` depends on `dependsOnSystemId`. */
export interface DependencyEdge {
  systemId: string;
  dependsOnSystemId: string;
}

/**
 * The cycle that giving `systemId` the dependencies `dependsOn` would close, as the systems along
 * it from `systemId` back to itself; undefined when there is none. `existing` holds the other
 * edges reachable from `dependsOn` (the current edges of `systemId` itself are replaced).
 */
export function findDependencyCycle(
  systemId: string,
  dependsOn: readonly string[],
  existing: readonly DependencyEdge[],
): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const edge of existing) {
    if (edge.systemId === systemId) continue;
    next.set(edge.systemId, [...(next.get(edge.systemId) ?? []), edge.dependsOnSystemId]);
  }
  next.set(systemId, [...dependsOn]);
  // Breadth first, so the cycle named is a shortest one.
  const cameFrom = new Map<string, string>();
  const queue = [systemId];
  for (let index = 0; index < queue.length; index += 1) {
    const current = queue[index]!;
    for (const target of next.get(current) ?? []) {
      if (target === systemId) {
        const path: string[] = [];
        for (let at = current; at !== systemId; at = cameFrom.get(at) ?? systemId) path.push(at);
        return [systemId, ...path.reverse(), systemId];
      }
      if (cameFrom.has(target)) continue;
      cameFrom.set(target, current);
      queue.push(target);
    }
  }
  return undefined;
}
