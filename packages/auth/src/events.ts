import { defineEvent } from '@checkline/core/contract';

/** A user or an application was deleted; plugins holding rows about it clean them up. */
export const principalDeleted = defineEvent<{ kind: 'user' | 'application'; id: string }>(
  'auth.principal_deleted',
);
