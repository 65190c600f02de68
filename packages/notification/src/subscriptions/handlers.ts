import { notBuilt, os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';

export function subscriptionsHandlers(_state: NotificationState) {
  return {
    getMySubscriptions: os.getMySubscriptions.handler(notBuilt),
    createSubscription: os.createSubscription.handler(notBuilt),
    deleteSubscription: os.deleteSubscription.handler(notBuilt),
  };
}
