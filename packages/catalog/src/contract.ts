import { defineContract, mutation, query, raises } from '@checkline/core/contract';
import {
  SYSTEM_RESOURCE,
  attachedListOfSystems,
  catalogAccess,
  attachedToSystemsIn,
  systemResource,
} from './access.ts';
import {
  CreateGroupInputSchema,
  CreateSystemInputSchema,
  DeletedSchema,
  GetGroupsInputSchema,
  GetSystemGroupsInputSchema,
  GetSystemsInputSchema,
  GroupMembershipInputSchema,
  GroupPageSchema,
  GroupSchema,
  IdInputSchema,
  SystemPageSchema,
  SystemSchema,
  UpdateGroupInputSchema,
  UpdateSystemInputSchema,
} from './schemas.ts';

const read = { access: [catalogAccess.read] };
const manage = { access: [catalogAccess.manage] };
const system = (level: 'read' | 'manage') => ({ ...systemResource, idField: 'id', level });
/** Groups belong to their member systems: team-only ones hide them. */
const listedGroups = attachedListOfSystems('systemIds', 'groups');

export {
  SYSTEM_RESOURCE,
  attachedListOfSystems,
  attachedToSystemsIn,
  systemResource,
} from './access.ts';

export const catalogContract = defineContract('catalog', {
  getSystems: query({
    ...read,
    resourceList: { type: SYSTEM_RESOURCE, field: 'systems' },
    summary:
      'Systems by name, a page at a time, optionally only those with all `tags` or one `owner`.',
    description:
      'Systems the caller may not see are left out; a page fills with rows the caller may see, so only the last page is short.',
  })
    .input(GetSystemsInputSchema)
    .output(SystemPageSchema),
  getSystem: query({ ...read, resource: system('read'), summary: 'One system by id.' })
    .input(IdInputSchema)
    .output(SystemSchema),
  createSystem: mutation({ ...manage, summary: 'Creates a system; its name must be unique.' })
    .errors(raises('CONFLICT'))
    .input(CreateSystemInputSchema)
    .output(SystemSchema),
  updateSystem: mutation({
    ...manage,
    resource: system('manage'),
    summary: 'Changes the given fields of a system.',
  })
    .errors(raises('CONFLICT'))
    .input(UpdateSystemInputSchema)
    .output(SystemSchema),
  deleteSystem: mutation({
    ...manage,
    resource: system('manage'),
    summary: 'Deletes a system; its checks go with it, windows and incidents drop it.',
  })
    .input(IdInputSchema)
    .output(DeletedSchema),

  getGroups: query({
    ...read,
    ...listedGroups,
    summary: 'Groups by name with the ids of their systems, a page at a time.',
  })
    .input(GetGroupsInputSchema)
    .output(GroupPageSchema),
  getGroup: query({ ...read, ...attachedListOfSystems('systemIds'), summary: 'One group by id.' })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(GroupSchema),
  getSystemGroups: query({
    ...read,
    ...listedGroups,
    resource: { ...system('read'), idField: 'systemId' },
    summary: 'The groups a system belongs to, by name, a page at a time.',
  })
    .input(GetSystemGroupsInputSchema)
    .output(GroupPageSchema),
  createGroup: mutation({ ...manage, summary: 'Creates a group; its name must be unique.' })
    .errors(raises('CONFLICT'))
    .input(CreateGroupInputSchema)
    .output(GroupSchema),
  updateGroup: mutation({ ...manage, summary: 'Changes the given fields of a group.' })
    .errors(raises('NOT_FOUND', 'CONFLICT'))
    .input(UpdateGroupInputSchema)
    .output(GroupSchema),
  deleteGroup: mutation({ ...manage, summary: 'Deletes a group; its systems stay.' })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(DeletedSchema),
  addSystemToGroup: mutation({
    ...manage,
    ...attachedToSystemsIn('systemId'),
    summary: 'Adds a system to a group.',
  })
    .input(GroupMembershipInputSchema)
    .output(GroupSchema),
  removeSystemFromGroup: mutation({
    ...manage,
    ...attachedToSystemsIn('systemId'),
    summary: 'Takes a system out of a group.',
  })
    .input(GroupMembershipInputSchema)
    .output(GroupSchema),
});

export type CatalogContract = typeof catalogContract;
