import type { Delivery } from '@checkline/notification';
import type { NotificationContract } from '@checkline/notification/contract';
import type { ContractRouterClient } from '@orpc/contract';

const WAIT_MS = 20_000;
const POLL_MS = 20;

/**
 * The deliveries of a notification once none is pending, asked through the API until then (a
 * bounded wait). `atLeastOne` also waits for the first delivery to be created.
 */
export async function settledDeliveries(
  notification: Pick<ContractRouterClient<NotificationContract>, 'getDeliveries'>,
  notificationId: string,
  options: { atLeastOne?: boolean } = {},
): Promise<Delivery[]> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const { deliveries } = await notification.getDeliveries({ notificationId });
    const created = !options.atLeastOne || deliveries.length > 0;
    if (created && deliveries.every((delivery) => delivery.status !== 'pending')) {
      return deliveries;
    }
    if (Date.now() > deadline) throw new Error(`deliveries of ${notificationId} still pending`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
