// A plugin that exists only in the benchmark: the catalog's five read shapes answered from memory,
// so the surfaces can be measured without a database statement behind each call.
import { accessRulesExtensionPoint } from '@checkline/auth';
import { GroupSchema, IdInputSchema, SystemSchema } from '@checkline/catalog';
import {
  defineAccessRules,
  defineContract,
  definePlugin,
  implementPlugin,
  notFound,
  query,
} from '@checkline/core';
import { z } from 'zod';

const memoryAccess = defineAccessRules('memory', {
  read: ['memory.read', 'Read the in-memory benchmark catalog'],
});

const read = { access: [memoryAccess.read] };

const memoryContract = defineContract('memory', {
  getSystem: query({ ...read, summary: 'One system by id.' })
    .input(IdInputSchema)
    .output(SystemSchema),
  getSystems: query({ ...read, summary: 'Every system.' })
    .input(z.object({}))
    .output(z.object({ systems: z.array(SystemSchema) })),
  getGroups: query({ ...read, summary: 'Every group.' })
    .input(z.object({}))
    .output(z.object({ groups: z.array(GroupSchema) })),
  getGroup: query({ ...read, summary: 'One group by id.' })
    .input(IdInputSchema)
    .output(GroupSchema),
  getSystemGroups: query({ ...read, summary: 'The groups a system belongs to.' })
    .input(z.object({ systemId: z.uuid() }))
    .output(z.object({ groups: z.array(GroupSchema) })),
});

/** One system in one group, the same shape and size as the catalog's bench data. */
export const memorySystem = {
  id: '6f1c2b9e-3a4d-4e5f-8a7b-9c0d1e2f3a4b',
  name: 'bench-system',
  description: 'the system every benchmark reads',
  owner: 'bench',
  metadata: { tier: 1 },
  tags: ['bench'],
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt: '2026-11-20T00:00:00.000Z',
};

export const memoryGroup = {
  id: '0b7d3c1a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
  name: 'bench-group',
  description: '',
  systemIds: [memorySystem.id],
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt: '2026-11-20T00:00:00.000Z',
};

const os = implementPlugin(memoryContract);

/** The plugin's own router, unguarded: what oRPC's handlers serve in the baselines. */
export const memoryRouter = os.router({
  getSystem: os.getSystem.handler(({ input }) => {
    if (input.id !== memorySystem.id) throw notFound('System', input.id);
    return memorySystem;
  }),
  getSystems: os.getSystems.handler(() => ({ systems: [memorySystem] })),
  getGroups: os.getGroups.handler(() => ({ groups: [memoryGroup] })),
  getGroup: os.getGroup.handler(({ input }) => {
    if (input.id !== memoryGroup.id) throw notFound('Group', input.id);
    return memoryGroup;
  }),
  getSystemGroups: os.getSystemGroups.handler(({ input }) => ({
    groups: input.systemId === memorySystem.id ? [memoryGroup] : [],
  })),
});

export const memoryPlugin = definePlugin({
  id: 'memory',
  description: "The catalog's reads answered from memory, for the benchmark.",
  contract: memoryContract,
  accessRules: Object.values(memoryAccess),
  router: memoryRouter,
  // Plugins outside the server's own list tell auth their rules through its extension point.
  register({ extensionPoints, pluginId }) {
    extensionPoints.get(accessRulesExtensionPoint, pluginId).register(Object.values(memoryAccess));
  },
});
