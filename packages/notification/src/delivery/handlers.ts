import { notBuilt, os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';

export function deliveryHandlers(_state: NotificationState) {
  return {
    sendExternal: os.sendExternal.handler(notBuilt),
    sendTransactional: os.sendTransactional.handler(notBuilt),
    sendTestNotification: os.sendTestNotification.handler(notBuilt),
    getDeliveries: os.getDeliveries.handler(notBuilt),
  };
}
