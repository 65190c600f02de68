import { defineContract, mutation, query } from '@checkline/core/contract';
import { z } from 'zod';
import { SYSTEM_RESOURCE, catalogAccess } from './access.ts';
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
const system = (level: 'read' | 'manage') => ({ type: SYSTEM_RESOURCE, idField: 'id', level });

export { SYSTEM_RESOURCE } from './access.ts';

export const catalogContract = defineContract('catalog', {
  getSystems: query({
    ...read,
    resourceList: { type: SYSTEM_RESOURCE, field: 'systems' },
    summary: 'Systems the caller may see, optionally only those with all `tags` or one `owner`.',
  })
    .input(GetSystemsInputSchema)
    .output(z.object({ systems: z.array(SystemSchema) })),
  getSystem: query({ ...read, resource: system('read'), summary: 'One system by id.' })
    .input(IdInputSchema)
    .output(SystemSchema),
  createSystem: mutation({ ...manage, summary: 'Creates a system; its name must be unique.' })
    .input(CreateSystemInputSchema)
    .output(SystemSchema),
  updateSystem: mutation({
    ...manage,
    resource: system('manage'),
    summary: 'Changes the given fields of a system.',
  })
    .input(UpdateSystemInputSchema)
    .output(SystemSchema),
  deleteSystem: mutation({
    ...manage,
    resource: system('manage'),
    summary: 'Deletes a system; its checks go with it, windows and incidents drop it.',
  })
    .input(IdInputSchema)
    .output(DeletedSchema),

  getGroups: query({ ...read, summary: 'Every group with the ids of its systems.' })
    .input(z.object({}))
    .output(z.object({ groups: z.array(GroupSchema) })),
  getGroup: query({ ...read, summary: 'One group by id.' })
    .input(IdInputSchema)
    .output(GroupSchema),
  getSystemGroups: query({
    ...read,
    resource: { ...system('read'), idField: 'systemId' },
    summary: 'The groups a system belongs to.',
  })
    .input(z.object({ systemId: z.uuid() }))
    .output(z.object({ groups: z.array(GroupSchema) })),
  createGroup: mutation({ ...manage, summary: 'Creates a group; its name must be unique.' })
    .input(CreateGroupInputSchema)
    .output(GroupSchema),
  updateGroup: mutation({ ...manage, summary: 'Changes the given fields of a group.' })
    .input(UpdateGroupInputSchema)
    .output(GroupSchema),
  deleteGroup: mutation({ ...manage, summary: 'Deletes a group; its systems stay.' })
    .input(IdInputSchema)
    .output(DeletedSchema),
  addSystemToGroup: mutation({ ...manage, summary: 'Adds a system to a group.' })
    .input(GroupMembershipInputSchema)
    .output(GroupSchema),
  removeSystemFromGroup: mutation({ ...manage, summary: 'Takes a system out of a group.' })
    .input(GroupMembershipInputSchema)
    .output(GroupSchema),
});

export type CatalogContract = typeof catalogContract;
