import { pageInput, pageOf } from '@checkline/core/contract';
import { z } from 'zod';

/** An address as compared and stored: trimmed and lowercased. */
const SubscriberEmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email('An e-mail address such as you@example.com').max(254));

/** What a visitor sends to subscribe (JSON or a form post). */
export const SubscribeBodySchema = z.strictObject({ email: SubscriberEmailSchema });

const SubscriberStatusSchema = z
  .enum(['pending', 'confirmed'])
  .describe('`pending` until the confirmation link is followed; only `confirmed` ones are mailed.');

const SubscriberSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    status: SubscriberStatusSchema,
    createdAt: z.iso.datetime(),
    confirmedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'StatusPageSubscriber' });
export type Subscriber = z.infer<typeof SubscriberSchema>;

export const GetSubscribersInputSchema = z.object({
  pageId: z.uuid(),
  status: SubscriberStatusSchema.optional(),
  ...pageInput,
});
export type GetSubscribersInput = z.infer<typeof GetSubscribersInputSchema>;

export const SubscriberListSchema = pageOf('subscribers', SubscriberSchema);
export type SubscriberList = z.infer<typeof SubscriberListSchema>;

export const DeleteSubscriberInputSchema = z.object({ pageId: z.uuid(), id: z.uuid() });
export const SubscriberDeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });
