import type { RequestContext } from '@checkline/core';
import { assertAttachedReach, implementPlugin, notFound, pageScope } from '@checkline/core';
import type { ResourceAccessLevel } from '@checkline/core/contract';
import { systemResource } from './access.ts';
import { catalogContract } from './contract.ts';
import { systemDeleted } from './events.ts';
import * as catalog from './service.ts';

const os = implementPlugin(catalogContract);

/** The group, once the caller may see it (read) or change it (manage); a hidden group answers as a missing one. */
async function reachGroup(context: RequestContext, id: string, level: ResourceAccessLevel) {
  const group = await catalog.getGroup(context.db, id);
  await assertAttachedReach(context, systemResource, group.systemIds, level, () =>
    notFound('Group', id),
  );
  return group;
}

export const catalogRouter = os.router({
  getSystems: os.getSystems.handler(({ context, input }) =>
    catalog.listSystems(context.db, input, pageScope(context)),
  ),
  getSystem: os.getSystem.handler(({ context, input }) => catalog.getSystem(context.db, input.id)),
  createSystem: os.createSystem.handler(({ context, input }) =>
    catalog.createSystem(context.db, input),
  ),
  updateSystem: os.updateSystem.handler(({ context, input }) =>
    catalog.updateSystem(context.db, input),
  ),
  deleteSystem: os.deleteSystem.handler(async ({ context, input }) => {
    const deleted = await catalog.deleteSystem(context.db, input.id);
    context.emit(systemDeleted, { systemId: deleted.id });
    return deleted;
  }),
  getGroups: os.getGroups.handler(({ context, input }) =>
    catalog.listGroups(context.db, input, pageScope(context)),
  ),
  getGroup: os.getGroup.handler(({ context, input }) => reachGroup(context, input.id, 'read')),
  getSystemGroups: os.getSystemGroups.handler(({ context, input }) =>
    catalog.listGroupsOfSystem(context.db, input, pageScope(context)),
  ),
  createGroup: os.createGroup.handler(({ context, input }) =>
    catalog.createGroup(context.db, input),
  ),
  updateGroup: os.updateGroup.handler(async ({ context, input }) => {
    await reachGroup(context, input.id, 'manage');
    return catalog.updateGroup(context.db, input);
  }),
  deleteGroup: os.deleteGroup.handler(async ({ context, input }) => {
    await reachGroup(context, input.id, 'manage');
    return catalog.deleteGroup(context.db, input.id);
  }),
  addSystemToGroup: os.addSystemToGroup.handler(async ({ context, input }) => {
    await reachGroup(context, input.groupId, 'manage');
    return catalog.addSystemToGroup(context.db, input);
  }),
  removeSystemFromGroup: os.removeSystemFromGroup.handler(async ({ context, input }) => {
    await reachGroup(context, input.groupId, 'manage');
    return catalog.removeSystemFromGroup(context.db, input);
  }),
});
