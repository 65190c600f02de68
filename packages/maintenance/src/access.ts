import { defineAccessRules } from '@checkline/core/contract';

export const maintenanceAccess = defineAccessRules('maintenance', {
  read: ['maintenance.read', 'See maintenance windows', { subscriber: true }],
  manage: ['maintenance.manage', 'Schedule, change and delete maintenance windows'],
});
