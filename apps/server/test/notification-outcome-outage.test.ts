import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import type { ThrowawayPostgres } from '@checkline/db/testing';
import { createTestDatabaseOn, startThrowawayPostgres } from '@checkline/db/testing';
import { createEgress } from '@checkline/net';
import type { Delivery } from '@checkline/notification';
import { notificationAccess } from '@checkline/notification';
import type { DeliveryProcess } from '@checkline/notification/testing';
import {
  configureStrategy,
  createUsers,
  deliveryMigrations,
  qualified,
  startDeliveryProcess,
  useRule,
} from '@checkline/notification/testing';
import { webhookStrategy } from '@checkline/notification-webhook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 22 item 7: a webhook send that finishes just as PostgreSQL goes away is recorded once
 * the database is back, not dropped and sent again when its lease lapses. The receiver stops a
 * throwaway PostgreSQL cluster before answering 200, and starts it again a moment later.
 */
const WEBHOOK = qualified('webhook');
const leaseMs = 15_000;

let cluster: ThrowawayPostgres;
let database: DatabaseHandle;
let server: DeliveryProcess;
const received: string[] = [];
let restarted: Promise<void> | undefined;

const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received.push(String(request.headers['x-checkline-delivery']));
    void (async () => {
      if (received.length === 1) {
        await cluster.stop();
        restarted = new Promise<void>((resolve, reject) => {
          setTimeout(() => void cluster.start().then(resolve, reject), 1_500);
        });
      }
      response.writeHead(200).end('ok');
    })();
  });
});

beforeAll(async () => {
  cluster = await startThrowawayPostgres();
  database = await createTestDatabaseOn(cluster.url, deliveryMigrations());
  server = await startDeliveryProcess(
    database.db,
    [webhookStrategy(createEgress({ allowPrivate: true }))],
    { leaseMs, sendTimeoutMs: 5_000 },
  );
  await configureStrategy(database.db, 'webhook');
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await database?.close().catch(() => {});
  await cluster?.destroy();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('a delivery whose send finished as the database went away', () => {
  it('is recorded once the database is back, and the receiver gets it once', async () => {
    const [userId] = await createUsers(database.db, ['outage@example.com'], [useRule('webhook')]);
    const user = testPrincipal([useRule('webhook')], { kind: 'user', id: userId! });
    const { port } = receiver.address() as AddressInfo;
    await server.notification(user).updateMyChannel({
      strategyId: WEBHOOK,
      config: { url: `http://127.0.0.1:${port}/hook`, signingSecret: 'outage-signing-secret-01' },
    });
    const { notificationId } = await server
      .notification(testPrincipal([notificationAccess.send]))
      .sendExternal({
        userIds: [userId!],
        strategyId: WEBHOOK,
        notification: { title: 'Checkout is down', importance: 'critical', type: 'test.alert' },
      });
    const admin = server.notification(testPrincipal([notificationAccess.manageStrategies]));

    // Ticks past the lease: a dropped outcome would be taken over then and sent a second time.
    const deadline = Date.now() + leaseMs + 10_000;
    let delivery: Delivery | undefined;
    while (Date.now() < deadline) {
      await server
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
    await server.worker().idle();

    expect(delivery).toMatchObject({ status: 'sent', attempts: 1 });
    expect(received).toEqual([delivery!.id]);
  }, 90_000);
});
