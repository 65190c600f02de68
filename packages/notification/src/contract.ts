import { defineContract, mutation, query, raises } from '@checkline/core/contract';
import { eventIterator } from '@orpc/contract';
import { z } from 'zod';
import { notificationAccess } from './access.ts';
import { SendToAddressInputSchema, SentToAddressSchema } from './address-mail/schemas.ts';
import { DeliveryLogPageSchema } from './delivery/log-schemas.ts';
import {
  DeliveriesSchema,
  DeliveryIdInputSchema,
  DeliverySchema,
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
  AcknowledgeAlertInputSchema,
  AlertPageSchema,
  AlertSchema,
  GetMyAlertsInputSchema,
} from './reminders/schemas.ts';
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
  UpdateSubscriptionInputSchema,
} from './subscriptions/schemas.ts';
import {
  CreateSubscriptionForInputSchema,
  GetSubscriptionsInputSchema,
} from './subscriptions/routing-schemas.ts';

const EmptyInputSchema = z.object({});

/**
 * Subscriptions name the systems of the server's system directory (the catalog's resource type,
 * named by its string so this contract imports no other plugin): a hidden one is NOT_FOUND.
 */
const subscribedSystems = { type: 'catalog.system', label: 'System' } as const;

/** Other plugins (service principal), or applications and users holding the rule. */
const senders = { principals: ['service', 'application', 'user'] as const };
/** The calling user's own inbox, channels and subscriptions. */
const ownInbox = { principals: ['user'] as const };
/**
 * The caller's own channels and subscriptions: a person's, or an application's (reached only at
 * the webhook it sets itself).
 */
const ownSettings = { principals: ['user', 'application'] as const };
const admin = { access: [notificationAccess.manageStrategies] };
/** Own subscriptions: the rule the built-in `subscriber` role holds. */
const ownSubscriptions = { ...ownSettings, access: [notificationAccess.subscribe] };
/** Subscriptions for others and for teams: users and applications holding the routing rule. */
const routing = {
  principals: ['user', 'application'] as const,
  access: [notificationAccess.routeAlerts],
};

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

  sendToAddress: mutation({
    principals: ['service'] as const,
    access: [notificationAccess.send],
    // It waits on the SMTP server: no transaction is held open meanwhile.
    transaction: false,
    summary: 'Sends one e-mail now to an address that belongs to no account (other plugins only).',
    description:
      "Through an e-mail strategy under the administrator's settings and layout; nothing is queued or stored, so the caller records what it sent and retries what failed. With `unsubscribeUrl` the mail carries RFC 8058 `List-Unsubscribe` headers.",
  })
    .input(SendToAddressInputSchema)
    .output(SentToAddressSchema),

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
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(DeletedSchema),
  streamNotifications: query({
    ...ownInbox,
    summary: 'Server-sent events: new notifications and unread counts, as they happen.',
  })
    .input(EmptyInputSchema)
    .output(eventIterator(InboxEventSchema)),

  getMyChannels: query({
    ...ownSettings,
    summary: 'The channels you may receive notifications through, with your settings.',
    description:
      'For an application (API key), only the channels that reach applications: the webhook.',
  })
    .input(EmptyInputSchema)
    .output(ChannelListSchema),
  updateMyChannel: mutation({
    ...ownSettings,
    summary: 'Turns one of your channels on or off, or changes your settings for it.',
    description:
      'An application (API key) sets its webhook here (`url` and `signingSecret`, the secret stored encrypted and never returned); any other channel is BAD_REQUEST for it.',
  })
    .input(UpdateMyChannelInputSchema)
    .output(ChannelSchema),

  getMySubscriptions: query({
    ...ownSubscriptions,
    attachedList: { ...subscribedSystems, via: 'systemId', field: 'subscriptions' },
    summary: 'What you are subscribed to.',
  })
    .input(GetMySubscriptionsInputSchema)
    .output(SubscriptionPageSchema),
  createSubscription: mutation({
    ...ownSubscriptions,
    attachedTo: { ...subscribedSystems, fields: ['systemId'], level: 'read' },
    summary: 'Subscribes you to a system, a group, or everything you can read.',
    description:
      'The system or group must exist and be readable by you (else NOT_FOUND). A second subscription to the same target is CONFLICT: change the first with updateSubscription. An application (API key) subscribes itself and hears at the webhook it set with updateMyChannel; it takes no reminders or escalation (BAD_REQUEST).',
  })
    .errors(raises('CONFLICT'))
    .input(CreateSubscriptionInputSchema)
    .output(SubscriptionSchema),
  updateSubscription: mutation({
    ...ownSubscriptions,
    summary: 'Changes the kinds of events a subscription hears.',
    description:
      'One of your own; with `notification.subscriptions.manage`, any (a team’s, another user’s, an application’s). Others are NOT_FOUND.',
  })
    .errors(raises('NOT_FOUND', 'CONFLICT'))
    .input(UpdateSubscriptionInputSchema)
    .output(SubscriptionSchema),
  deleteSubscription: mutation({
    ...ownSubscriptions,
    summary: 'Ends a subscription.',
    description:
      'One of your own; with `notification.subscriptions.manage`, any (a team’s, another user’s, an application’s). Others are NOT_FOUND.',
  })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(DeletedSchema),
  getMyAlerts: query({
    ...ownInbox,
    summary: 'The alerts you hold (reminded of, or escalated to you), newest first.',
    description:
      'An alert opens when a subscription with `remindEverySeconds` or an escalation hears a system turn unhealthy or an incident open; it ends with the recovery or resolution, or when acknowledged.',
  })
    .input(GetMyAlertsInputSchema)
    .output(AlertPageSchema),
  acknowledgeAlert: mutation({
    ...ownInbox,
    summary: 'Acknowledges one of your alerts: its reminders and escalation stop.',
    description:
      'An alert acknowledged or resolved before is answered as it stands (nothing changes). Another person’s alert is NOT_FOUND.',
  })
    .errors(raises('NOT_FOUND'))
    .input(AcknowledgeAlertInputSchema)
    .output(AlertSchema),
  getSubscriptions: query({
    ...routing,
    attachedList: { ...subscribedSystems, via: 'systemId', field: 'subscriptions' },
    summary: 'Every subscription (of users, teams and applications), newest first.',
  })
    .input(GetSubscriptionsInputSchema)
    .output(SubscriptionPageSchema),
  createSubscriptionFor: mutation({
    ...routing,
    attachedTo: { ...subscribedSystems, fields: ['systemId'], level: 'read' },
    summary:
      'Routes alerts: subscribes a user, a team (each of its current members) or an application (at its webhook) to a system, a group or everything.',
    description:
      'The user, team or application must exist and the system or group be readable by you (else NOT_FOUND). Each recipient hears only about what they may read themselves, when the event happens; a team subscription reaches whoever is a member then. An application takes no reminders or escalation (BAD_REQUEST). A second subscription of the same owner to the same target is CONFLICT.',
  })
    .errors(raises('CONFLICT'))
    .input(CreateSubscriptionForInputSchema)
    .output(SubscriptionSchema),

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
    .errors(raises('NOT_FOUND'))
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
    .output(DeliveryLogPageSchema),
  redeliver: mutation({
    ...admin,
    summary: 'Puts a failed delivery back in the queue, due now, with a fresh round of attempts.',
    description:
      'Only a `failed` delivery (any other status is CONFLICT). Its id stays the same, so a receiver that saw an earlier attempt recognises it (`X-Checkline-Delivery` on webhooks); its attempt log is kept.',
  })
    .errors(raises('NOT_FOUND', 'CONFLICT'))
    .input(DeliveryIdInputSchema)
    .output(DeliverySchema),
});

export type NotificationContract = typeof notificationContract;
