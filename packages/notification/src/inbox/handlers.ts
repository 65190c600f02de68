import { notBuilt, os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';

export function inboxHandlers(_state: NotificationState) {
  return {
    notifyUsers: os.notifyUsers.handler(notBuilt),
    getNotifications: os.getNotifications.handler(notBuilt),
    getUnreadCount: os.getUnreadCount.handler(notBuilt),
    markAsRead: os.markAsRead.handler(notBuilt),
    deleteNotification: os.deleteNotification.handler(notBuilt),
    streamNotifications: os.streamNotifications.handler(notBuilt),
  };
}
