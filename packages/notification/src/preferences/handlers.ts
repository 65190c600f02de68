import { notBuilt, os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';

export function preferencesHandlers(_state: NotificationState) {
  return {
    getMyChannels: os.getMyChannels.handler(notBuilt),
    updateMyChannel: os.updateMyChannel.handler(notBuilt),
  };
}
