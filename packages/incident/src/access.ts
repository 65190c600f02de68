import { defineAccessRules } from '@checkline/core/contract';

export const incidentAccess = defineAccessRules('incident', {
  read: ['incident.read', 'See incidents and their timelines', { subscriber: true }],
  manage: ['incident.manage', 'Open, update, resolve and delete incidents'],
});
