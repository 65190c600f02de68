import { pageInput, timestampInput } from '@checkline/core/contract';
import { z } from 'zod';
import { NotificationContentSchema } from '../message-schemas.ts';
import { StrategyIdSchema } from '../strategies/schemas.ts';

const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(200)
  .describe(
    'Repeating a call with the same key creates nothing new and answers the same deliveries.',
  );

const { title, body, ...notificationFields } = NotificationContentSchema.shape;

/** The seed's notification of sendExternal: `description` instead of `body`, in its place. */
export const ExternalNotificationSchema = z.object({
  title,
  description: body,
  ...notificationFields,
});

export const SendExternalInputSchema = z.object({
  userIds: z.array(z.uuid()).min(1).max(1_000),
  strategyId: StrategyIdSchema.optional().describe(
    'Only this channel; without it, every channel each user may use and has enabled.',
  ),
  notification: ExternalNotificationSchema,
  idempotencyKey: IdempotencyKeySchema.optional(),
});

/** sendTransactional's message: sendExternal's notification without an importance. */
const TransactionalMessageSchema = ExternalNotificationSchema.omit({ importance: true });

export const SendTransactionalInputSchema = z.object({
  userId: z.uuid(),
  strategyId: StrategyIdSchema,
  message: TransactionalMessageSchema,
  idempotencyKey: IdempotencyKeySchema.optional(),
});

const DeliveryStatusSchema = z
  .enum(['pending', 'sent', 'failed', 'skipped'])
  .describe('`pending` until sent, failed for good, or skipped (the reason says why).');

const AttemptSchema = z.object({
  at: z.iso.datetime(),
  outcome: z.enum(['sent', 'retry', 'failed', 'skipped']),
  error: z.string().optional(),
  durationMs: z.number().nonnegative().optional(),
});

export const DeliverySchema = z
  .object({
    id: z.uuid(),
    notificationId: z.uuid().describe('The send call (message) this delivery belongs to.'),
    userId: z.uuid().describe('The recipient: a user, or an application (see `recipientKind`).'),
    recipientKind: z
      .enum(['user', 'application'])
      .describe('`application`: a subscription of an application, sent to its own webhook.'),
    strategyId: z.string(),
    status: DeliveryStatusSchema,
    transactional: z.boolean(),
    attempts: z.int().nonnegative(),
    maxAttempts: z.int().min(1),
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
  unknownUserIds: z.array(z.uuid()).describe('Ids no user has: no delivery was created for them.'),
});

export const SendTestInputSchema = z.object({ strategyId: StrategyIdSchema });
export const TestDeliverySchema = z.object({ delivery: DeliverySchema });

export const GetDeliveriesInputSchema = z.object({
  status: DeliveryStatusSchema.optional(),
  strategyId: StrategyIdSchema.optional(),
  userId: z.uuid().optional().describe('Only the deliveries to this user or application.'),
  notificationId: z.uuid().optional(),
  /** Only deliveries created at or after this instant. */
  createdFrom: timestampInput().optional(),
  /** Only deliveries created strictly before this instant. */
  createdBefore: timestampInput().optional(),
  ...pageInput,
});

export const DeliveryIdInputSchema = z.object({ id: z.uuid() });

export type Delivery = z.infer<typeof DeliverySchema>;
export type GetDeliveriesInput = z.infer<typeof GetDeliveriesInputSchema>;
