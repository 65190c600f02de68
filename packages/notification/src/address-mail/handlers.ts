import { os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';
import { sendToAddress } from './send.ts';

export function addressMailHandlers(state: NotificationState) {
  return {
    sendToAddress: os.sendToAddress.handler(({ input }) => sendToAddress(state, input)),
  };
}
