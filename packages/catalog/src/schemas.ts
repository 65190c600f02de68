import { pageInput, pageOf } from '@checkline/core/contract';
import { z } from 'zod';

const name = z.string().trim().min(1, 'Name must not be empty').max(200);
const description = z.string().max(5_000);
const id = z.uuid();

export const SystemSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  owner: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  tags: z.array(z.string()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
SystemSchema.register(z.globalRegistry, {
  id: 'System',
  examples: [
    {
      id: '6f1c2b9e-3a4d-4e5f-8a7b-9c0d1e2f3a4b',
      name: 'payments',
      description: 'Card payments API',
      owner: 'sre',
      metadata: { tier: 1 },
      tags: ['prod'],
      createdAt: '2026-01-05T09:30:00.000Z',
      updatedAt: '2026-01-05T09:30:00.000Z',
    },
  ],
});
export type System = z.infer<typeof SystemSchema>;

export const GroupSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  systemIds: z.array(z.uuid()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
GroupSchema.register(z.globalRegistry, { id: 'Group' });
export type Group = z.infer<typeof GroupSchema>;

const tag = z.string().trim().min(1).max(100);

export const GetSystemsInputSchema = z.object({
  /** Only these systems (unknown ids are simply absent from the answer). */
  ids: z.array(id).max(500).optional(),
  /** Only systems carrying every one of these tags. */
  tags: z.array(tag).max(50).optional(),
  owner: z.string().optional(),
  ...pageInput,
});
export type GetSystemsInput = z.infer<typeof GetSystemsInputSchema>;

export const CreateSystemInputSchema = z.object({
  name,
  description: description.optional(),
  owner: z.string().trim().min(1).max(200).nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  tags: z.array(tag).max(50).optional(),
});
export type CreateSystemInput = z.infer<typeof CreateSystemInputSchema>;

export const UpdateSystemInputSchema = CreateSystemInputSchema.partial().extend({ id });
export type UpdateSystemInput = z.infer<typeof UpdateSystemInputSchema>;

export const SystemPageSchema = pageOf('systems', SystemSchema);
export type SystemPage = z.infer<typeof SystemPageSchema>;

export const GroupPageSchema = pageOf('groups', GroupSchema);
export type GroupPage = z.infer<typeof GroupPageSchema>;

export const GetGroupsInputSchema = z.object(pageInput);
export type GetGroupsInput = z.infer<typeof GetGroupsInputSchema>;

export const GetSystemGroupsInputSchema = z.object({ systemId: id, ...pageInput });
export type GetSystemGroupsInput = z.infer<typeof GetSystemGroupsInputSchema>;

export const IdInputSchema = z.object({ id });
export const DeletedSchema = z.object({ id, deleted: z.literal(true) });

export const CreateGroupInputSchema = z.object({ name, description: description.optional() });
export type CreateGroupInput = z.infer<typeof CreateGroupInputSchema>;

export const UpdateGroupInputSchema = CreateGroupInputSchema.partial().extend({ id });
export type UpdateGroupInput = z.infer<typeof UpdateGroupInputSchema>;

export const GroupMembershipInputSchema = z.object({ groupId: id, systemId: id });
export type GroupMembershipInput = z.infer<typeof GroupMembershipInputSchema>;
