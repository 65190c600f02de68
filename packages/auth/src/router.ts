import { pageScope } from '@checkline/core';
import { listAudit } from './audit.ts';
import { accountHandlers } from './handlers/account.ts';
import { applicationHandlers } from './handlers/applications.ts';
import { os } from './handlers/implementer.ts';
import { roleHandlers } from './handlers/roles.ts';
import { teamHandlers } from './handlers/teams.ts';
import { userHandlers } from './handlers/users.ts';
import type { AuthState } from './state.ts';

/**
 * The auth router of one plugin instance (its handlers invalidate that instance's caches). The
 * handlers only adapt: the logic is in the services beside them.
 */
export function createAuthRouter(state: AuthState) {
  return os.router({
    ...accountHandlers(state),
    ...userHandlers(state),
    ...applicationHandlers(state),
    ...roleHandlers(state),
    ...teamHandlers(state),
    getAuditLog: os.getAuditLog.handler(({ context, input }) =>
      listAudit(context.db, input, pageScope(context)),
    ),
  });
}

export type AuthRouter = ReturnType<typeof createAuthRouter>;
