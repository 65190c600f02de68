import { pageInput } from '@checkline/core/contract';
import { z } from 'zod';
import {
  escalationComplete,
  escalationIssue,
  reminderPolicyInput,
} from '../reminders/policy-schemas.ts';
import { oneTarget, subscriptionTarget } from './schemas.ts';

/**
 * An administrator's routing: a subscription for one user, for a team, or for an application,
 * with reminders and an escalation (to a person or a team) like a user's own (not for an
 * application: it takes none).
 */
export const CreateSubscriptionForInputSchema = z
  .object({
    userId: z.uuid().optional().describe('The user who hears.'),
    teamId: z.uuid().optional().describe('The team whose every current member hears.'),
    applicationId: z
      .uuid()
      .optional()
      .describe('The application that hears, at the webhook it set for itself.'),
    ...subscriptionTarget,
    ...reminderPolicyInput,
  })
  .refine(...oneTarget)
  .refine(escalationComplete, escalationIssue)
  .refine(
    (input) =>
      [input.userId, input.teamId, input.applicationId].filter((id) => id !== undefined).length ===
      1,
    { message: 'Give a userId, a teamId or an applicationId, exactly one', path: ['teamId'] },
  );

export const GetSubscriptionsInputSchema = z.object({
  userId: z.uuid().optional().describe('Only the subscriptions of this user.'),
  teamId: z.uuid().optional().describe('Only the subscriptions of this team.'),
  applicationId: z.uuid().optional().describe('Only the subscriptions of this application.'),
  ...pageInput,
});

export type CreateSubscriptionForInput = z.infer<typeof CreateSubscriptionForInputSchema>;
