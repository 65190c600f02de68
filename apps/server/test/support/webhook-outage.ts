import type { ServerResponse } from 'node:http';
import { testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import type { ThrowawayPostgres } from '@checkline/db/testing';
import { createTestDatabaseOn, startThrowawayPostgres } from '@checkline/db/testing';
import { createEgress } from '@checkline/net';
import type { LoopbackServer } from '@checkline/net/testing';
import { startLoopbackServer } from '@checkline/net/testing';
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
import { afterAll, beforeAll } from 'vitest';

const WEBHOOK = qualified('webhook');

export interface WebhookOutageOptions {
  /**
   * The worker's settings; `leaseMs` is how long a claim holds before a tick may take it over,
   * `sendTimeoutMs` (default 5 s, below the lease) how long a send may run before it counts as
   * failed and is retried.
   */
  delivery: { leaseMs: number; tickIntervalMs?: number; sendTimeoutMs?: number };
  /**
   * How the receiver answers each webhook, by the delivery id it carries; it may stop and start
   * `fixture.cluster` before it answers.
   */
  answer: (deliveryId: string, response: ServerResponse) => void;
}

/**
 * A delivery process on a throwaway PostgreSQL cluster of the calling file's own (so that the
 * file may stop it), sending webhooks to a loopback receiver. Made before the file's tests and
 * torn down after them.
 */
export function webhookOutagePerFile(options: WebhookOutageOptions) {
  let receiver: LoopbackServer | undefined;
  const fixture = {
    cluster: undefined as unknown as ThrowawayPostgres,
    database: undefined as unknown as DatabaseHandle,
    server: undefined as unknown as DeliveryProcess,

    /** New users whose webhook channel points at the receiver; their ids. */
    async webhookUsers(emails: string[]) {
      const userIds = await createUsers(fixture.database.db, emails, [useRule('webhook')]);
      for (const id of userIds) {
        await fixture.server
          .notification(testPrincipal([useRule('webhook')], { kind: 'user', id }))
          .updateMyChannel({
            strategyId: WEBHOOK,
            config: { url: `${receiver!.url}/hook`, signingSecret: 'outage-signing-secret-01' },
          });
      }
      return userIds;
    },

    /** Sends one critical notification to `userIds` over the webhook; its id. */
    async send(userIds: string[], title: string) {
      const { notificationId } = await fixture.server
        .notification(testPrincipal([notificationAccess.send]))
        .sendExternal({
          userIds,
          strategyId: WEBHOOK,
          notification: { title, importance: 'critical', type: 'test.alert' },
        });
      return notificationId;
    },
  };

  beforeAll(async () => {
    fixture.cluster = await startThrowawayPostgres();
    fixture.database = await createTestDatabaseOn(fixture.cluster.url, deliveryMigrations());
    fixture.server = await startDeliveryProcess(
      fixture.database.db,
      [webhookStrategy(createEgress({ allowPrivate: true }))],
      { sendTimeoutMs: 5_000, ...options.delivery },
    );
    await configureStrategy(fixture.database.db, 'webhook');
    receiver = await startLoopbackServer((request, response) => {
      options.answer(String(request.headers['x-checkline-delivery']), response);
    });
  }, 120_000);
  afterAll(async () => {
    await fixture.server?.stop();
    await fixture.database?.close().catch(() => {});
    await fixture.cluster?.destroy();
    await receiver?.close();
  });

  return fixture;
}
