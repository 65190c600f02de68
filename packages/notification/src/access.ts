import { defineAccessRules } from '@checkline/core/contract';

export const notificationAccess = defineAccessRules('notification', {
  send: ['notification.send', 'Send in-app and external notifications to users'],
  sendTransactional: [
    'transactional.send',
    "Send transactional messages that bypass a user's channel preferences",
  ],
  manageStrategies: [
    'strategy.manage',
    'Configure notification channels and read the delivery log',
  ],
});
