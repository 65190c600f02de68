import { os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';
import { listStrategies, updateStrategy } from './service.ts';

export function strategiesHandlers(state: NotificationState) {
  return {
    // A transaction: migrated layers are written back together with the read that saw them.
    getStrategies: os.getStrategies.handler(async ({ context }) => ({
      strategies: await context.db.transaction((tx) => listStrategies(state, tx)),
    })),
    updateStrategy: os.updateStrategy.handler(({ context, input }) =>
      updateStrategy(state, context.db, input),
    ),
  };
}
