import { pageInput } from '@checkline/core/contract';
import { z } from 'zod';
import {
  escalationComplete,
  escalationIssue,
  reminderPolicyInput,
} from '../reminders/policy-schemas.ts';
import { oneTarget, subscriptionTarget } from './schemas.ts';

/**
 * An administrator's routing: a subscription for one user or for a team, with reminders and an
 * escalation (to a person or a team) like a user's own.
 */
export const CreateSubscriptionForInputSchema = z
  .object({
    userId: z.uuid().optional().describe('The user who hears.'),
    teamId: z.uuid().optional().describe('The team whose every current member hears.'),
    ...subscriptionTarget,
    ...reminderPolicyInput,
  })
  .refine(...oneTarget)
  .refine(escalationComplete, escalationIssue)
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
