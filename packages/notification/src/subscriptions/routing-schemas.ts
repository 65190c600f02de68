import { pageInput } from '@checkline/core/contract';
import { z } from 'zod';
import { oneTarget, subscriptionTarget } from './schemas.ts';

/** An administrator's routing: a subscription for one user or for a team. */
export const CreateSubscriptionForInputSchema = z
  .object({
    userId: z.uuid().optional().describe('The user who hears.'),
    teamId: z.uuid().optional().describe('The team whose every current member hears.'),
    ...subscriptionTarget,
  })
  .refine(...oneTarget)
  .refine((input) => (input.userId === undefined) !== (input.teamId === undefined), {
    message: 'Give a userId or a teamId, exactly one',
    path: ['teamId'],
  });

export const GetSubscriptionsInputSchema = z.object({
  userId: z.uuid().optional().describe('Only the subscriptions of this user.'),
  teamId: z.uuid().optional().describe('Only the subscriptions of this team.'),
  ...pageInput,
});

export type CreateSubscriptionForInput = z.infer<typeof CreateSubscriptionForInputSchema>;
