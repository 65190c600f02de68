import { defineContract, mutation, query } from '@checkline/core/contract';
import { z } from 'zod';
import {
  SYSTEM_RESOURCE,
  attachedToSystems,
  catalogAccess,
  namesSystems,
  systemResource,
} from './access.ts';
import {
  CreateGroupInputSchema,
  CreateSystemInputSchema,
  DeletedSchema,
  GetSystemsInputSchema,
  GroupMembershipInputSchema,
  GroupSchema,
  IdInputSchema,
  SystemSchema,
  UpdateGroupInputSchema,
  UpdateSystemInputSchema,
} from './schemas.ts';

const read = { access: [catalogAccess.read] };
const manage = { access: [catalogAccess.manage] };
const system = (level: 'read' | 'manage') => ({ ...systemResource, idField: 'id', level });
/** Groups belong to their member systems: team-only ones hide them (API.md 2). */
const listedGroups = attachedToSystems('systemIds', 'groups');

export { SYSTEM_RESOURCE, attachedToSystems, namesSystems, systemResource } from './access.ts';

export const catalogContract = defineContract('catalog', {
  /** Systems the caller may see, optionally only those with all `tags` or one `owner`. */
  getSystems: query({ ...read, resourceList: { type: SYSTEM_RESOURCE, field: 'systems' } })
    .input(GetSystemsInputSchema)
    .output(z.object({ systems: z.array(SystemSchema) })),
  getSystem: query({ ...read, resource: system('read') })
    .input(IdInputSchema)
    .output(SystemSchema),
  createSystem: mutation(manage).input(CreateSystemInputSchema).output(SystemSchema),
  updateSystem: mutation({ ...manage, resource: system('manage') })
    .input(UpdateSystemInputSchema)
    .output(SystemSchema),
  deleteSystem: mutation({ ...manage, resource: system('manage') })
    .input(IdInputSchema)
    .output(DeletedSchema),

  getGroups: query({ ...read, ...listedGroups })
    .input(z.object({}))
    .output(z.object({ groups: z.array(GroupSchema) })),
  getGroup: query({ ...read, ...attachedToSystems('systemIds') })
    .input(IdInputSchema)
    .output(GroupSchema),
  /** The groups a system belongs to. */
  getSystemGroups: query({
    ...read,
    ...listedGroups,
    resource: { ...system('read'), idField: 'systemId' },
  })
    .input(z.object({ systemId: z.uuid() }))
    .output(z.object({ groups: z.array(GroupSchema) })),
  createGroup: mutation(manage).input(CreateGroupInputSchema).output(GroupSchema),
  updateGroup: mutation(manage).input(UpdateGroupInputSchema).output(GroupSchema),
  deleteGroup: mutation(manage).input(IdInputSchema).output(DeletedSchema),
  addSystemToGroup: mutation({ ...manage, ...namesSystems('systemId') })
    .input(GroupMembershipInputSchema)
    .output(GroupSchema),
  removeSystemFromGroup: mutation({ ...manage, ...namesSystems('systemId') })
    .input(GroupMembershipInputSchema)
    .output(GroupSchema),
});

export type CatalogContract = typeof catalogContract;
