import type { RequestContext } from '@checkline/core';
import { pageScope } from '@checkline/core';
import { os } from '../implementer.ts';
import type { AlertHolder } from './service.ts';
import * as reminders from './service.ts';

/** The callers of these procedures are users (the contract admits no other kind). */
const holderOf = (context: RequestContext): AlertHolder => ({
  userId: context.principal.id!,
  teamIds: context.principal.teamIds,
});

export function remindersHandlers() {
  return {
    getMyAlerts: os.getMyAlerts.handler(({ context, input }) =>
      reminders.listAlerts(context.db, holderOf(context), input, pageScope(context)),
    ),
    acknowledgeAlert: os.acknowledgeAlert.handler(({ context, input }) =>
      reminders.acknowledgeAlertOrThrow(context.db, holderOf(context), input.id),
    ),
  };
}
