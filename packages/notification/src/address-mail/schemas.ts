import { z } from 'zod';
import { ExternalNotificationSchema } from '../delivery/schemas.ts';
import { StrategyIdSchema } from '../strategies/schemas.ts';

export const SendToAddressInputSchema = z.object({
  address: z.email().max(254).describe('An e-mail address that belongs to no account.'),
  strategyId: StrategyIdSchema.optional().describe(
    'An e-mail strategy; without it, the first enabled and configured one by id.',
  ),
  notification: ExternalNotificationSchema.omit({ importance: true }),
  unsubscribeUrl: z
    .url({ protocol: /^https?$/ })
    .max(2_048)
    .optional()
    .describe('Put in `List-Unsubscribe` (RFC 8058 one-click); the caller answers it.'),
  messageId: z
    .uuid()
    .optional()
    .describe('Names the message (its `Message-ID`): the same on a repeat, so receivers drop it.'),
});
export type SendToAddressInput = z.infer<typeof SendToAddressInputSchema>;

export const SentToAddressSchema = z.object({
  sent: z.boolean(),
  strategyId: z.string().nullable().describe('The strategy that sent it, or would have.'),
  error: z.string().nullable().describe('Why it was not sent (secrets scrubbed).'),
});
export type SentToAddress = z.infer<typeof SentToAddressSchema>;
