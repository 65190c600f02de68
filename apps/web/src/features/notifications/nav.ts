import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';

const notification = contracts.notification;

export const inboxNav: NavEntry = {
  label: 'Inbox',
  to: '/notifications',
  mayOpen: (me) => mayCall(me, notification.getNotifications),
};

export const notificationSettingsNav: NavEntry = {
  label: 'Notification settings',
  to: '/settings/notifications',
  mayOpen: (me) => mayCall(me, notification.getMyChannels),
};

export const strategiesNav: NavEntry = {
  label: 'Notification channels',
  to: '/admin/notification-channels',
  mayOpen: (me) => mayCall(me, notification.getStrategies),
};

export const deliveriesNav: NavEntry = {
  label: 'Delivery log',
  to: '/admin/deliveries',
  mayOpen: (me) => mayCall(me, notification.getDeliveries),
};
