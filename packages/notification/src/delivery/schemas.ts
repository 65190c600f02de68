import { pageInput, pageOf } from '@checkline/core/contract';
import { z } from 'zod';
import {
  ActionSchema,
  ImportanceSchema,
  MarkdownSchema,
  NotificationTypeSchema,
  TitleSchema,
} from '../message-schemas.ts';
import { StrategyIdSchema } from '../strategies/schemas.ts';

const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(200)
  .describe(
    'Repeating a call with the same key creates nothing new and answers the same deliveries.',
  );

/** The seed's notification of sendExternal: `description` instead of `body`. */
export const ExternalNotificationSchema = z.object({
  title: TitleSchema,
  description: MarkdownSchema.optional().describe('Markdown.'),
  importance: ImportanceSchema.default('info'),
  action: ActionSchema.optional(),
  type: NotificationTypeSchema,
});

export const SendExternalInputSchema = z.object({
  userIds: z.array(z.uuid()).min(1).max(1_000),
  strategyId: StrategyIdSchema.optional().describe(
    'Only this channel; without it, every channel each user may use and has enabled.',
  ),
  notification: ExternalNotificationSchema,
  idempotencyKey: IdempotencyKeySchema.optional(),
});

export const TransactionalMessageSchema = z.object({
  title: TitleSchema,
  description: MarkdownSchema.optional().describe('Markdown.'),
  action: ActionSchema.optional(),
  type: NotificationTypeSchema,
});

export const SendTransactionalInputSchema = z.object({
  userId: z.uuid(),
  strategyId: StrategyIdSchema,
  message: TransactionalMessageSchema,
  idempotencyKey: IdempotencyKeySchema.optional(),
});

export const DeliveryStatusSchema = z
  .enum(['pending', 'sent', 'failed', 'skipped'])
  .describe('`pending` until sent, failed for good, or skipped (the reason says why).');

export const AttemptSchema = z.object({
  at: z.iso.datetime(),
  outcome: z.enum(['sent', 'retry', 'failed', 'skipped']),
  error: z.string().optional(),
  durationMs: z.number().nonnegative().optional(),
});

export const DeliverySchema = z
  .object({
    id: z.uuid(),
    notificationId: z.uuid().describe('The send call (message) this delivery belongs to.'),
    userId: z.uuid(),
    strategyId: z.string(),
    status: DeliveryStatusSchema,
    transactional: z.boolean(),
    attempts: z.int().nonnegative(),
    maxAttempts: z.int().positive(),
    nextAttemptAt: z.iso.datetime().nullable(),
    lastError: z.string().nullable(),
    skipReason: z.string().nullable(),
    attemptLog: z.array(AttemptSchema),
    createdAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Delivery' });

export const DeliveriesSchema = z.object({
  notificationId: z.uuid(),
  deliveries: z.array(DeliverySchema),
});

export const SendTestInputSchema = z.object({ strategyId: StrategyIdSchema });
export const TestDeliverySchema = z.object({ delivery: DeliverySchema });

export const GetDeliveriesInputSchema = z.object({
  status: DeliveryStatusSchema.optional(),
  strategyId: StrategyIdSchema.optional(),
  userId: z.uuid().optional(),
  notificationId: z.uuid().optional(),
  ...pageInput,
});

export const DeliveryPageSchema = pageOf('deliveries', DeliverySchema);

export type Delivery = z.infer<typeof DeliverySchema>;
export type SendExternalInput = z.infer<typeof SendExternalInputSchema>;
export type SendTransactionalInput = z.infer<typeof SendTransactionalInputSchema>;
export type GetDeliveriesInput = z.infer<typeof GetDeliveriesInputSchema>;
export type DeliveryPage = z.infer<typeof DeliveryPageSchema>;
