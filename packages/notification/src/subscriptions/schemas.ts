import { pageInput, pageOf } from '@checkline/core/contract';
import { z } from 'zod';
import {
  escalationComplete,
  escalationIssue,
  reminderPolicyInput,
  reminderPolicyOutput,
} from '../reminders/policy-schemas.ts';

const SubscriptionEventKindSchema = z
  .enum(['health', 'incident', 'maintenance'])
  .describe('Health status changes, incidents, or maintenance windows starting and ending.');

export const SubscriptionSchema = z
  .object({
    id: z.uuid(),
    userId: z.uuid().nullable().describe('The user who hears (null unless a user’s).'),
    teamId: z
      .uuid()
      .nullable()
      .describe('The team whose every current member hears (null unless a team’s).'),
    applicationId: z
      .uuid()
      .nullable()
      .describe('The application that hears at its own webhook (null unless an application’s).'),
    systemId: z.uuid().nullable(),
    groupId: z.uuid().nullable(),
    events: z.array(SubscriptionEventKindSchema),
    ...reminderPolicyOutput,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Subscription' });

const EventsSchema = z.array(SubscriptionEventKindSchema).min(1).max(3);

/** What a subscription is about: a system, a group, or (neither) everything. */
export const subscriptionTarget = {
  systemId: z.uuid().optional().describe('Hear about this system.'),
  groupId: z.uuid().optional().describe('Hear about the systems of this group.'),
  events: EventsSchema.default(['health', 'incident', 'maintenance']),
};

export const oneTarget: [
  (input: { systemId?: string | undefined; groupId?: string | undefined }) => boolean,
  { message: string; path: string[] },
] = [
  (input) => !(input.systemId && input.groupId),
  {
    message: 'Give a systemId or a groupId, not both (neither: everything the recipient can read)',
    path: ['groupId'],
  },
];

export const CreateSubscriptionInputSchema = z
  .object({ ...subscriptionTarget, ...reminderPolicyInput })
  .refine(...oneTarget)
  .refine(escalationComplete, escalationIssue);

export const UpdateSubscriptionInputSchema = z.object({
  id: z.uuid(),
  events: EventsSchema.describe('The kinds of events the subscription hears from now on.'),
});

export const GetMySubscriptionsInputSchema = z.object({
  ...pageInput,
  systemId: z
    .uuid()
    .optional()
    .describe('Only your subscription to this system itself (at most one; not its groups).'),
});
export const SubscriptionPageSchema = pageOf('subscriptions', SubscriptionSchema);

export type Subscription = z.infer<typeof SubscriptionSchema>;
export type CreateSubscriptionInput = z.infer<typeof CreateSubscriptionInputSchema>;
export type UpdateSubscriptionInput = z.infer<typeof UpdateSubscriptionInputSchema>;
