import { pageInput, pageOf } from '@checkline/core/contract';
import { z } from 'zod';
import {
  ActionSchema,
  ImportanceSchema,
  NotificationContentSchema,
  TitleSchema,
} from '../message-schemas.ts';

/** A notification as notifyUsers takes it (the seed's Notification). */
const NotificationInputSchema = NotificationContentSchema.extend({
  title: TitleSchema.describe('Shown as the headline; the e-mail subject.'),
});

export const NotifyUsersInputSchema = z.object({
  userIds: z.array(z.uuid()).min(1).max(10_000),
  notification: NotificationInputSchema,
});

export const NotifiedSchema = z.object({
  notified: z.int().nonnegative().describe('How many inbox rows were written: one per known user.'),
  unknownUserIds: z
    .array(z.uuid())
    .describe('Ids among `userIds` that no user has: nothing was stored for them.'),
});

const InAppNotificationSchema = z
  .object({
    id: z.uuid(),
    type: z.string(),
    title: z.string(),
    body: z.string(),
    importance: ImportanceSchema,
    action: ActionSchema.nullable(),
    read: z.boolean(),
    readAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'InAppNotification' });

export const GetNotificationsInputSchema = z.object({
  unreadOnly: z.boolean().default(false).describe('Only notifications not yet read.'),
  ...pageInput,
});

export const NotificationPageSchema = pageOf('notifications', InAppNotificationSchema);

export const UnreadCountSchema = z.object({ count: z.int().nonnegative() });

export const MarkAsReadInputSchema = z.union([
  z.object({ ids: z.array(z.uuid()).min(1).max(1_000) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);

export const MarkedAsReadSchema = z.object({
  updated: z.int().nonnegative(),
  unreadCount: z.int().nonnegative(),
});

export const IdInputSchema = z.object({ id: z.uuid() });
export const DeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });

/** What the stream pushes: a new notification, or the unread count after any change. */
export const InboxEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('notification'), notification: InAppNotificationSchema }),
  z.object({ kind: z.literal('unread'), count: z.int().nonnegative() }),
]);

export type NotificationInput = z.infer<typeof NotificationInputSchema>;
export type InAppNotification = z.infer<typeof InAppNotificationSchema>;
export type InboxEvent = z.infer<typeof InboxEventSchema>;
export type GetNotificationsInput = z.infer<typeof GetNotificationsInputSchema>;
export type MarkAsReadInput = z.infer<typeof MarkAsReadInputSchema>;
