import { catalogContract } from '@checkline/catalog/contract';
import type { RequestContext } from '@checkline/core';
import { pluginClient } from '@checkline/core';
import type { SystemRef } from './messages.ts';

const PAGE = 1_000;

/** Names of the systems among `systemIds` that still exist, in the order given. */
export async function systemsNamed(
  context: RequestContext,
  systemIds: readonly string[],
): Promise<SystemRef[]> {
  const wanted = [...new Set(systemIds)];
  if (wanted.length === 0) return [];
  const { systems } = await pluginClient(context, 'catalog', catalogContract).getSystems({
    ids: wanted,
    limit: wanted.length,
  });
  const names = new Map(systems.map((system) => [system.id, system.name]));
  return wanted.flatMap((id) => (names.has(id) ? [{ id, name: names.get(id)! }] : []));
}

/** The groups holding each of `systemIds`, through the catalog's contract. */
export async function groupsOfSystems(
  context: RequestContext,
  systemIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const catalog = pluginClient(context, 'catalog', catalogContract);
  const groups = new Map<string, Set<string>>();
  for (const systemId of new Set(systemIds)) {
    const held = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await catalog.getSystemGroups({ systemId, limit: PAGE, cursor });
      for (const group of page.groups) held.add(group.id);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    groups.set(systemId, held);
  }
  return groups;
}
