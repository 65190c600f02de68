import { defineContract, mutation, query } from '@checkline/core/contract';
import { SYSTEM_RESOURCE, catalogAccess } from './access.ts';
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
const system = (level: 'read' | 'manage') => ({ type: SYSTEM_RESOURCE, idField: 'id', level });

export { SYSTEM_RESOURCE } from './access.ts';

export const catalogContract = defineContract('catalog', {
  /**
   * Systems by name, a page at a time, optionally only those with all `tags` or one `owner`.
   * Systems the caller may not see are left out after the page is read, so a page may be short.
   */
  getSystems: query({ ...read, resourceList: { type: SYSTEM_RESOURCE, field: 'systems' } })
    .input(GetSystemsInputSchema)
    .output(SystemPageSchema),
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

  /** Groups by name, a page at a time. */
  getGroups: query(read).input(GetGroupsInputSchema).output(GroupPageSchema),
  getGroup: query(read).input(IdInputSchema).output(GroupSchema),
  /** The groups a system belongs to, by name, a page at a time. */
  getSystemGroups: query({ ...read, resource: { ...system('read'), idField: 'systemId' } })
    .input(GetSystemGroupsInputSchema)
    .output(GroupPageSchema),
  createGroup: mutation(manage).input(CreateGroupInputSchema).output(GroupSchema),
  updateGroup: mutation(manage).input(UpdateGroupInputSchema).output(GroupSchema),
  deleteGroup: mutation(manage).input(IdInputSchema).output(DeletedSchema),
  addSystemToGroup: mutation(manage).input(GroupMembershipInputSchema).output(GroupSchema),
  removeSystemFromGroup: mutation(manage).input(GroupMembershipInputSchema).output(GroupSchema),
});

export type CatalogContract = typeof catalogContract;
