import { defineEvent } from '@checkline/core/contract';

/** A user or an application was deleted; plugins holding rows about it clean them up. */
export const principalDeleted = defineEvent<{ kind: 'user' | 'application'; id: string }>(
  'auth.principal_deleted',
);

/** A team was deleted; plugins holding rows about it (its subscriptions) clean them up. */
export const teamDeleted = defineEvent<{ id: string }>('auth.team_deleted');
