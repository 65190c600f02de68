import { addressMailHandlers } from './address-mail/handlers.ts';
import { deliveryHandlers } from './delivery/handlers.ts';
import { os } from './implementer.ts';
import { inboxHandlers } from './inbox/handlers.ts';
import { preferencesHandlers } from './preferences/handlers.ts';
import { remindersHandlers } from './reminders/handlers.ts';
import { renderHandlers } from './render/handlers.ts';
import type { NotificationState } from './state.ts';
import { strategiesHandlers } from './strategies/handlers.ts';
import { subscriptionsHandlers } from './subscriptions/handlers.ts';

/** The notification router of one plugin instance; handlers only adapt, services hold the logic. */
export function createNotificationRouter(state: NotificationState) {
  return os.router({
    ...inboxHandlers(state),
    ...deliveryHandlers(state),
    ...addressMailHandlers(state),
    ...preferencesHandlers(state),
    ...renderHandlers(state),
    ...strategiesHandlers(state),
    ...subscriptionsHandlers(state),
    ...remindersHandlers(),
  });
}
