import { os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';
import { listMyChannels, updateMyChannel } from './service.ts';

/** The contract admits only users here, so the principal's id is the user's. */
const userIdOf = (principal: { id: string | null }) => principal.id!;

export function preferencesHandlers(state: NotificationState) {
  return {
    // A transaction: migrated configs are written back together with the read that saw them.
    getMyChannels: os.getMyChannels.handler(async ({ context }) => ({
      channels: await context.db.transaction((tx) =>
        listMyChannels(state, tx, context.principal, userIdOf(context.principal)),
      ),
    })),
    updateMyChannel: os.updateMyChannel.handler(({ context, input }) =>
      updateMyChannel(state, context.db, context.principal, userIdOf(context.principal), input),
    ),
  };
}
