import { pageInput, pageOf } from '@checkline/core/contract';
import { z } from 'zod';

export const SubscriptionEventKindSchema = z
  .enum(['health', 'incident', 'maintenance'])
  .describe('Health status changes, incidents, or maintenance windows starting and ending.');

export const SubscriptionSchema = z
  .object({
    id: z.uuid(),
    systemId: z.uuid().nullable(),
    groupId: z.uuid().nullable(),
    events: z.array(SubscriptionEventKindSchema),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Subscription' });

export const CreateSubscriptionInputSchema = z
  .object({
    systemId: z.uuid().optional().describe('Hear about this system.'),
    groupId: z.uuid().optional().describe('Hear about the systems of this group.'),
    events: z
      .array(SubscriptionEventKindSchema)
      .min(1)
      .max(3)
      .default(['health', 'incident', 'maintenance']),
  })
  .refine((input) => !(input.systemId && input.groupId), {
    message: 'Give a systemId or a groupId, not both (neither: everything you can read)',
    path: ['groupId'],
  });

export const GetMySubscriptionsInputSchema = z.object({ ...pageInput });
export const SubscriptionPageSchema = pageOf('subscriptions', SubscriptionSchema);

export type Subscription = z.infer<typeof SubscriptionSchema>;
export type CreateSubscriptionInput = z.infer<typeof CreateSubscriptionInputSchema>;
