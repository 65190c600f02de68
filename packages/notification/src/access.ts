import { defineAccessRules } from '@checkline/core/contract';

export const notificationAccess = defineAccessRules('notification', {
  send: ['notification.send', 'Send in-app and external notifications to users'],
  sendTransactional: [
    'transactional.send',
    "Send transactional messages that bypass a user's channel preferences",
  ],
  subscribe: [
    'subscriptions.own',
    'Subscribe yourself to alerts about what you can read, and change your subscriptions',
    { subscriber: true },
  ],
  routeAlerts: [
    'subscriptions.manage',
    'Subscribe teams and other users to alerts; see, change and end every subscription',
  ],
  manageStrategies: [
    'strategy.manage',
    'Configure notification channels and read the delivery log',
  ],
});
