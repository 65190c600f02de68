import { defineAccessRules } from '@checkline/core/contract';

export const healthcheckAccess = defineAccessRules('healthcheck', {
  read: [
    'healthcheck.read',
    'See health checks, their results and system health',
    { subscriber: true },
  ],
  manage: ['healthcheck.manage', 'Create, change, delete and run health checks'],
});

/** Resource type of a catalog system, for team grants. */
