import type { RequestContext } from '@checkline/core';
import { os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';
import * as inbox from './service.ts';
import { streamInbox } from './stream.ts';

/** The calling user's id; the contract admits only users to the inbox procedures. */
function callerId(context: RequestContext): string {
  const { kind, id } = context.principal;
  if (kind !== 'user' || id === null) throw new Error('inbox procedures are for users only');
  return id;
}

export function inboxHandlers(state: NotificationState) {
  return {
    notifyUsers: os.notifyUsers.handler(async ({ context, input }) => ({
      notified: await inbox.insertNotifications(context.db, input.userIds, input.notification),
    })),
    getNotifications: os.getNotifications.handler(({ context, input }) =>
      inbox.listNotifications(context.db, callerId(context), input),
    ),
    getUnreadCount: os.getUnreadCount.handler(async ({ context }) => ({
      count: await inbox.countUnread(context.db, callerId(context)),
    })),
    markAsRead: os.markAsRead.handler(({ context, input }) =>
      inbox.markAsRead(context.db, callerId(context), input),
    ),
    deleteNotification: os.deleteNotification.handler(({ context, input }) =>
      inbox.deleteNotification(context.db, callerId(context), input.id),
    ),
    streamNotifications: os.streamNotifications.handler(async function* ({ context, signal }) {
      yield* streamInbox(state.inboxHub, context.db, callerId(context), signal);
    }),
  };
}
