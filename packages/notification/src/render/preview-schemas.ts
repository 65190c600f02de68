import { z } from 'zod';
import { ExternalNotificationSchema } from '../delivery/schemas.ts';
import { StrategyIdSchema } from '../strategies/schemas.ts';

export const PreviewNotificationInputSchema = z.object({
  strategyId: StrategyIdSchema,
  notification: ExternalNotificationSchema,
});

export const NotificationPreviewSchema = z
  .object({
    email: z
      .object({
        subject: z.string(),
        html: z.string().describe('The complete HTML e-mail, in the layout.'),
        text: z.string().describe('The plain-text part of the e-mail.'),
      })
      .describe("The e-mail as it would be sent, with the strategy's current layout."),
    text: z.string().describe('The body as plain text (SMS, fallbacks), the action appended.'),
    chat: z.string().describe('The body as Slack `mrkdwn`, the action appended as a link.'),
  })
  .meta({ id: 'NotificationPreview' });

export type PreviewNotificationInput = z.infer<typeof PreviewNotificationInputSchema>;
export type NotificationPreview = z.infer<typeof NotificationPreviewSchema>;
