import { attachedToSystems, systemResource } from '@checkline/catalog/contract';
import { defineContract, mutation, query } from '@checkline/core/contract';
import { eventIterator } from '@orpc/contract';
import { z } from 'zod';
import { notificationAccess } from './access.ts';
import {
  DeliveriesSchema,
  DeliveryPageSchema,
  GetDeliveriesInputSchema,
  SendExternalInputSchema,
  SendTestInputSchema,
  SendTransactionalInputSchema,
  TestDeliverySchema,
} from './delivery/schemas.ts';
import {
  DeletedSchema,
  GetNotificationsInputSchema,
  IdInputSchema,
  InboxEventSchema,
  MarkAsReadInputSchema,
  MarkedAsReadSchema,
  NotificationPageSchema,
  NotifiedSchema,
  NotifyUsersInputSchema,
  UnreadCountSchema,
} from './inbox/schemas.ts';
import {
  ChannelListSchema,
  ChannelSchema,
  UpdateMyChannelInputSchema,
} from './preferences/schemas.ts';
import {
  NotificationPreviewSchema,
  PreviewNotificationInputSchema,
} from './render/preview-schemas.ts';
import {
  StrategyListSchema,
  StrategySchema,
  UpdateStrategyInputSchema,
} from './strategies/schemas.ts';
import {
  CreateSubscriptionInputSchema,
  GetMySubscriptionsInputSchema,
  SubscriptionPageSchema,
  SubscriptionSchema,
} from './subscriptions/schemas.ts';

const EmptyInputSchema = z.object({});

/** Other plugins (service principal), or applications and users holding the rule. */
const senders = { principals: ['service', 'application', 'user'] as const };
/** The calling user's own inbox, channels and subscriptions. */
const ownInbox = { principals: ['user'] as const };
const admin = { access: [notificationAccess.manageStrategies] };

export const notificationContract = defineContract('notification', {
  notifyUsers: mutation({
    ...senders,
    access: [notificationAccess.send],
    summary: 'Puts a notification in the in-app inbox of each user.',
  })
    .input(NotifyUsersInputSchema)
    .output(NotifiedSchema),
  sendExternal: mutation({
    ...senders,
    access: [notificationAccess.send],
    summary: 'Queues a notification to each user through their external channels.',
    description:
      'Without `strategyId`, every channel the user may use (its `.use` rule), has enabled, and an administrator has enabled and configured. Users without a contact get a `skipped` delivery with the reason.',
  })
    .input(SendExternalInputSchema)
    .output(DeliveriesSchema),
  sendTransactional: mutation({
    ...senders,
    access: [notificationAccess.sendTransactional],
    summary: "Queues a message to one user through one channel, whatever the user's own switch.",
  })
    .input(SendTransactionalInputSchema)
    .output(DeliveriesSchema),

  getNotifications: query({ ...ownInbox, summary: 'Your notifications, newest first.' })
    .input(GetNotificationsInputSchema)
    .output(NotificationPageSchema),
  getUnreadCount: query({ ...ownInbox, summary: 'How many of your notifications are unread.' })
    .input(EmptyInputSchema)
    .output(UnreadCountSchema),
  markAsRead: mutation({ ...ownInbox, summary: 'Marks the given notifications, or all, as read.' })
    .input(MarkAsReadInputSchema)
    .output(MarkedAsReadSchema),
  deleteNotification: mutation({ ...ownInbox, summary: 'Deletes one of your notifications.' })
    .input(IdInputSchema)
    .output(DeletedSchema),
  streamNotifications: query({
    ...ownInbox,
    summary: 'Server-sent events: new notifications and unread counts, as they happen.',
  })
    .input(EmptyInputSchema)
    .output(eventIterator(InboxEventSchema)),

  getMyChannels: query({
    ...ownInbox,
    summary: 'The channels you may receive notifications through, with your settings.',
  })
    .input(EmptyInputSchema)
    .output(ChannelListSchema),
  updateMyChannel: mutation({
    ...ownInbox,
    summary: 'Turns one of your channels on or off, or changes your settings for it.',
  })
    .input(UpdateMyChannelInputSchema)
    .output(ChannelSchema),

  getMySubscriptions: query({
    ...ownInbox,
    ...attachedToSystems('systemId', 'subscriptions'),
    summary: 'What you are subscribed to.',
  })
    .input(GetMySubscriptionsInputSchema)
    .output(SubscriptionPageSchema),
  createSubscription: mutation({
    ...ownInbox,
    attachedTo: { ...systemResource, fields: ['systemId'], level: 'read' },
    summary: 'Subscribes you to a system, a group, or everything you can read.',
    description:
      'The system or group must exist and be readable by you (else NOT_FOUND). A second subscription to the same target is CONFLICT: delete the first to change its kinds of events.',
  })
    .input(CreateSubscriptionInputSchema)
    .output(SubscriptionSchema),
  deleteSubscription: mutation({ ...ownInbox, summary: 'Ends one of your subscriptions.' })
    .input(IdInputSchema)
    .output(DeletedSchema),

  getStrategies: query({
    ...admin,
    summary: 'Every notification strategy with its settings, schemas and problems.',
  })
    .input(EmptyInputSchema)
    .output(StrategyListSchema),
  updateStrategy: mutation({
    ...admin,
    summary: 'Enables or disables a strategy, or changes its config or layout.',
  })
    .input(UpdateStrategyInputSchema)
    .output(StrategySchema),
  sendTestNotification: mutation({
    ...admin,
    ...ownInbox,
    summary: 'Sends a test notification to you through one strategy, the real delivery path.',
  })
    .input(SendTestInputSchema)
    .output(TestDeliverySchema),
  previewNotification: query({
    ...admin,
    bulk: true,
    summary: 'What a notification looks like through one strategy, without sending it.',
    description:
      "The e-mail (subject, HTML in the strategy's current layout, text part), the plain text and the chat markup the renderers make of it. Nothing is sent or stored. Served as POST: a body may be long.",
  })
    .input(PreviewNotificationInputSchema)
    .output(NotificationPreviewSchema),
  getDeliveries: query({ ...admin, summary: 'The delivery log, newest first.' })
    .input(GetDeliveriesInputSchema)
    .output(DeliveryPageSchema),
});

export type NotificationContract = typeof notificationContract;
