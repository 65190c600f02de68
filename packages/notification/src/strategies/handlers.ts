import { notBuilt, os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';

export function strategiesHandlers(_state: NotificationState) {
  return {
    getStrategies: os.getStrategies.handler(notBuilt),
    updateStrategy: os.updateStrategy.handler(notBuilt),
  };
}
