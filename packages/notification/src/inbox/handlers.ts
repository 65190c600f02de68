import { pageScope } from '@checkline/core';
import { callerUserId } from '../caller.ts';
import { recipientsOf } from '../delivery/user-profiles.ts';
import { os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';
import * as inbox from './service.ts';
import { streamInbox } from './stream.ts';

export function inboxHandlers(state: NotificationState) {
  return {
    notifyUsers: os.notifyUsers.handler(async ({ context, input }) => {
      const { profiles, unknownUserIds } = await recipientsOf(context, input.userIds);
      const known = [...profiles.keys()];
      const notified = await inbox.insertNotifications(context.db, known, input.notification);
      // Counted last, so the quota's row is locked only until the commit; a refusal rolls back.
      await state.assertWithinSendQuota(context.principal, known.length, context.db);
      return { notified, unknownUserIds };
    }),
    getNotifications: os.getNotifications.handler(({ context, input }) =>
      inbox.listNotifications(context.db, callerUserId(context), input, pageScope(context)),
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
    // Not a generator itself: a stream refused for this process's limit is an HTTP error, not an
    // event of a stream already begun.
    streamNotifications: os.streamNotifications.handler(async ({ context, signal }) =>
      streamInbox(state.inboxHub, context.db, callerUserId(context), signal),
    ),
  };
}
