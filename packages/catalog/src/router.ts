import { implementPlugin } from '@checkline/core';
import { catalogContract } from './contract.ts';
import { systemDeleted } from './events.ts';
import * as catalog from './service.ts';

const os = implementPlugin(catalogContract);

export const catalogRouter = os.router({
  getSystems: os.getSystems.handler(({ context, input }) => catalog.listSystems(context.db, input)),
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
  getGroups: os.getGroups.handler(({ context, input }) => catalog.listGroups(context.db, input)),
  getGroup: os.getGroup.handler(({ context, input }) => catalog.getGroup(context.db, input.id)),
  getSystemGroups: os.getSystemGroups.handler(({ context, input }) =>
    catalog.listGroupsOfSystem(context.db, input),
  ),
  createGroup: os.createGroup.handler(({ context, input }) =>
    catalog.createGroup(context.db, input),
  ),
  updateGroup: os.updateGroup.handler(({ context, input }) =>
    catalog.updateGroup(context.db, input),
  ),
  deleteGroup: os.deleteGroup.handler(({ context, input }) =>
    catalog.deleteGroup(context.db, input.id),
  ),
  addSystemToGroup: os.addSystemToGroup.handler(({ context, input }) =>
    catalog.addSystemToGroup(context.db, input),
  ),
  removeSystemFromGroup: os.removeSystemFromGroup.handler(({ context, input }) =>
    catalog.removeSystemFromGroup(context.db, input),
  ),
});
