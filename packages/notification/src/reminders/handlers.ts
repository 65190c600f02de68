import type { RequestContext } from '@checkline/core';
import { pageScope } from '@checkline/core';
import { os } from '../implementer.ts';
import * as reminders from './service.ts';

/** The callers of these procedures are users (the contract admits no other kind). */
const userIdOf = (context: RequestContext) => context.principal.id!;

export function remindersHandlers() {
  return {
    getMyAlerts: os.getMyAlerts.handler(({ context, input }) =>
      reminders.listAlerts(context.db, userIdOf(context), input, pageScope(context)),
    ),
    acknowledgeAlert: os.acknowledgeAlert.handler(({ context, input }) =>
      reminders.acknowledgeAlertOrThrow(context.db, userIdOf(context), input.id),
    ),
  };
}
