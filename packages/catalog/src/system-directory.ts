import type { Principal, RequestContext } from '@checkline/core';
import { assertAttachedReach, notFound, pluginClient } from '@checkline/core';
import { catalogAccess, SYSTEM_RESOURCE, systemResource } from './access.ts';
import { assertSystemsExist } from './assert-systems-exist.ts';
import { catalogContract } from './contract.ts';

const PAGE = 1_000;

const mayReadCatalog = (principal: Principal) =>
  principal.isAdmin || principal.accessRules.includes(catalogAccess.read.id);

/** Those of `systemIds` that `principal` may read: the catalog rule, or a team grant. */
async function readableBy(
  context: RequestContext,
  principal: Principal,
  systemIds: readonly string[],
): Promise<ReadonlySet<string>> {
  return context.resources.visible(
    context.db,
    principal,
    SYSTEM_RESOURCE,
    systemIds,
    'read',
    mayReadCatalog(principal),
  );
}

/**
 * The catalog's systems as notification subscriptions name them (the shape of notification's
 * `SystemDirectory`): monitoring plugins hand it to their notification sources, so the
 * notification platform reads systems, groups and readers without importing the catalog.
 */
export const catalogSystemDirectory = {
  async systemsNamed(context: RequestContext, systemIds: readonly string[]) {
    const wanted = [...new Set(systemIds)];
    if (wanted.length === 0) return [];
    const { systems } = await pluginClient(context, catalogContract).getSystems({
      ids: wanted,
      limit: wanted.length,
    });
    const names = new Map(systems.map((system) => [system.id, system.name]));
    return wanted.flatMap((id) => {
      const name = names.get(id);
      return name === undefined ? [] : [{ id, name }];
    });
  },

  async groupsOfSystems(context: RequestContext, systemIds: readonly string[]) {
    const catalog = pluginClient(context, catalogContract);
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
  },

  readableBy,

  /** A team-only system needs the caller's team grant; a hidden one is NOT_FOUND like a missing one. */
  async assertSystemReadable(context: RequestContext, systemId: string) {
    await assertSystemsExist(context, [systemId]);
    const visible = await readableBy(context, context.principal, [systemId]);
    if (!visible.has(systemId)) throw notFound('System', systemId);
  },

  /** The catalog rule, and one of the group's systems within reach (or none in it). */
  async assertGroupReadable(context: RequestContext, groupId: string) {
    if (!mayReadCatalog(context.principal)) throw notFound('Group', groupId);
    const group = await pluginClient(context, catalogContract).getGroup({ id: groupId });
    await assertAttachedReach(context, systemResource, group.systemIds, 'read', () =>
      notFound('Group', groupId),
    );
  },
};
