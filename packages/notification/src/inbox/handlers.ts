import { callerUserId } from '../caller.ts';
import { os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';
import * as inbox from './service.ts';
import { streamInbox } from './stream.ts';

export function inboxHandlers(state: NotificationState) {
  return {
    notifyUsers: os.notifyUsers.handler(async ({ context, input }) => ({
      notified: await inbox.insertNotifications(context.db, input.userIds, input.notification),
    })),
    getNotifications: os.getNotifications.handler(({ context, input }) =>
      inbox.listNotifications(context.db, callerUserId(context), input),
    ),
    getUnreadCount: os.getUnreadCount.handler(async ({ context }) => ({
      count: await inbox.countUnread(context.db, callerUserId(context)),
    })),
    markAsRead: os.markAsRead.handler(({ context, input }) =>
      inbox.markAsRead(context.db, callerUserId(context), input),
    ),
    deleteNotification: os.deleteNotification.handler(({ context, input }) =>
      inbox.deleteNotification(context.db, callerUserId(context), input.id),
    ),
    streamNotifications: os.streamNotifications.handler(async function* ({ context, signal }) {
      yield* streamInbox(state.inboxHub, context.db, callerUserId(context), signal);
    }),
  };
}
