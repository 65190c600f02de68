import { pageScope } from '@checkline/core';
import { notFound } from '@checkline/core/contract';
import { callerUserId } from '../caller.ts';
import { os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';
import { enqueueDeliveries } from './enqueue.ts';
import { toLogEntries } from './log-entries.ts';
import { redeliver } from './redeliver.ts';
import { listDeliveries } from './service.ts';

/** What an administrator receives through sendTestNotification. */
const testNotification = {
  title: 'Test notification from Checkline',
  body: 'This channel works: an administrator sent this **test notification** to check it.',
  importance: 'info' as const,
  type: 'notification.test',
};

export function deliveryHandlers(state: NotificationState) {
  return {
    sendExternal: os.sendExternal.handler(({ context, input }) => {
      const { description, ...notification } = input.notification;
      return enqueueDeliveries(state, context, {
        kind: 'external',
        userIds: input.userIds,
        strategyId: input.strategyId,
        notification: { ...notification, body: description },
        idempotencyKey: input.idempotencyKey,
        quota: true,
      });
    }),
    sendTransactional: os.sendTransactional.handler(({ context, input }) => {
      const { description, ...message } = input.message;
      return enqueueDeliveries(state, context, {
        kind: 'transactional',
        userIds: [input.userId],
        strategyId: input.strategyId,
        notification: { ...message, body: description, importance: 'info' },
        idempotencyKey: input.idempotencyKey,
        quota: true,
      });
    }),
    sendTestNotification: os.sendTestNotification.handler(async ({ context, input }) => {
      const { deliveries } = await enqueueDeliveries(state, context, {
        kind: 'test',
        userIds: [callerUserId(context)],
        strategyId: input.strategyId,
        notification: testNotification,
      });
      const [delivery] = deliveries;
      if (!delivery) throw notFound('Notification strategy', input.strategyId);
      return { delivery };
    }),
    getDeliveries: os.getDeliveries.handler(({ context, input }) =>
      listDeliveries(context.db, input, pageScope(context), (rows) => toLogEntries(context, rows)),
    ),
    redeliver: os.redeliver.handler(async ({ context, input }) => {
      const delivery = await redeliver(context.db, input.id, {
        maxAttempts: state.deliverySettings.maxAttempts,
      });
      context.afterCommit(() => state.deliveryWorker?.wake());
      return delivery;
    }),
  };
}
