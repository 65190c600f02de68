import { os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';
import { previewNotification } from './preview.ts';

export function renderHandlers(state: NotificationState) {
  return {
    // A transaction: a migrated layout is written back together with the read that saw it.
    previewNotification: os.previewNotification.handler(({ context, input }) =>
      context.db.transaction((tx) => previewNotification(state, tx, input)),
    ),
  };
}
