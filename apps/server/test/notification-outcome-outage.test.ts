import type { Delivery } from '@checkline/notification';
import { notificationAccess } from '@checkline/notification';
import { testPrincipal } from '@checkline/core/testing';
import { describe, expect, it } from 'vitest';
import { webhookOutagePerFile } from './support/webhook-outage.ts';

/**
 * Issue 22 item 7: a webhook send that finishes just as PostgreSQL goes away is recorded once
 * the database is back, not dropped and sent again when its lease lapses. The receiver stops a
 * throwaway PostgreSQL cluster before answering 200, and starts it again a moment later.
 */
const leaseMs = 15_000;

const received: string[] = [];
let restarted: Promise<void> | undefined;

const rig = webhookOutagePerFile({
  delivery: { leaseMs },
  answer(id, response) {
    received.push(id);
    void (async () => {
      if (received.length === 1) {
        await rig.cluster.stop();
        restarted = new Promise<void>((resolve, reject) => {
          setTimeout(() => void rig.cluster.start().then(resolve, reject), 1_500);
        });
      }
      response.writeHead(200).end('ok');
    })();
  },
});

describe('a delivery whose send finished as the database went away', () => {
  it('is recorded once the database is back, and the receiver gets it once', async () => {
    const [userId] = await rig.webhookUsers(['outage@example.com']);
    const notificationId = await rig.send([userId!], 'Checkout is down');
    const admin = rig.server.notification(testPrincipal([notificationAccess.manageStrategies]));

    // Ticks past the lease: a dropped outcome would be taken over then and sent a second time.
    const deadline = Date.now() + leaseMs + 10_000;
    let delivery: Delivery | undefined;
    while (Date.now() < deadline) {
      await rig.server
        .worker()
        .tick()
        .catch(() => 0);
      if (restarted) await restarted;
      delivery = await admin
        .getDeliveries({ notificationId })
        .then((page) => page.deliveries[0])
        .catch(() => undefined);
      if (delivery?.status === 'sent' && Date.now() > deadline - 8_000) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await rig.server.worker().idle();

    expect(delivery).toMatchObject({ status: 'sent', attempts: 1 });
    expect(received).toEqual([delivery!.id]);
  }, 90_000);
});
