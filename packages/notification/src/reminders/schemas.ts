import { pageInput, pageOf } from '@checkline/core/contract';
import { z } from 'zod';

export const AlertSchema = z
  .object({
    id: z.uuid(),
    subscriptionId: z.uuid(),
    teamId: z
      .uuid()
      .nullable()
      .describe(
        'The team whose members hold it (a team subscription’s alert); null for a person’s.',
      ),
    type: z.string(),
    title: z.string(),
    systemIds: z.array(z.uuid()),
    state: z
      .enum(['open', 'acknowledged', 'resolved'])
      .describe(
        '`open` while it reminds or may escalate; `acknowledged` or `resolved` once it stopped.',
      ),
    openedAt: z.iso.datetime(),
    remindersSent: z.number().int(),
    nextReminderAt: z.iso.datetime().nullable(),
    escalateToUserId: z.uuid().nullable(),
    escalateToTeamId: z.uuid().nullable(),
    escalateAt: z.iso.datetime().nullable(),
    escalatedAt: z.iso.datetime().nullable(),
    acknowledgedAt: z.iso.datetime().nullable(),
    acknowledgedBy: z.uuid().nullable(),
    resolvedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Alert' });

export const GetMyAlertsInputSchema = z.object({ ...pageInput });
export const AlertPageSchema = pageOf('alerts', AlertSchema);
export const AcknowledgeAlertInputSchema = z.object({ id: z.uuid() });

export type Alert = z.infer<typeof AlertSchema>;
