import { defineAccessRules } from '@checkline/core/contract';

export const statuspageAccess = defineAccessRules('statuspage', {
  read: ['page.read', 'See status pages as their admins do (drafts included)'],
  manage: ['page.manage', 'Create, change and delete status pages'],
  publish: ['page.publish', 'Publish and unpublish status pages'],
});
