import { pageOf } from '@checkline/core/contract';
import { z } from 'zod';
import { DeliverySchema } from './schemas.ts';

/** A row of the delivery log: the delivery, what it carried and to whom, as a person reads it. */
const DeliveryLogEntrySchema = DeliverySchema.extend({
  title: z.string().describe('The title of the notification delivered.'),
  type: z.string().describe('Its event type, e.g. `healthcheck.status_changed`.'),
  recipient: z
    .string()
    .nullable()
    .describe(
      'Who it is for: a user’s name and account e-mail, or `<name> (application)` (null once deleted). Never the channel’s contact, which may be a secret (a webhook URL, a token).',
    ),
}).meta({ id: 'DeliveryLogEntry' });

export const DeliveryLogPageSchema = pageOf('deliveries', DeliveryLogEntrySchema);

export type DeliveryLogEntry = z.infer<typeof DeliveryLogEntrySchema>;
