import { callerRecipient } from '../caller.ts';
import { os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';
import { listMyChannels, updateMyChannel } from './service.ts';

export function preferencesHandlers(state: NotificationState) {
  return {
    // A transaction: migrated configs are written back together with the read that saw them.
    getMyChannels: os.getMyChannels.handler(async ({ context }) => ({
      channels: await context.db.transaction((tx) =>
        listMyChannels(state, tx, context.principal, callerRecipient(context).id),
      ),
    })),
    updateMyChannel: os.updateMyChannel.handler(({ context, input }) =>
      updateMyChannel(state, context.db, context.principal, callerRecipient(context).id, input),
    ),
  };
}
