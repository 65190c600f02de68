import { servicePrincipal } from '@checkline/core/contract';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, messages } from '../db/schema.ts';
import { recordingStrategy } from '../testing/recording-strategy.ts';
import { enqueueDeliveries } from './enqueue.ts';
import type { DeliveryProcess } from './test-kit.ts';
import {
  configureStrategy,
  createUsers,
  deliveryMigrations,
  qualified,
  startDeliveryProcess,
  useRule,
} from './test-kit.ts';

let database: DatabaseHandle;
let server: DeliveryProcess;
const email = recordingStrategy({ id: 'email' });
const sms = recordingStrategy({ id: 'sms' });
const notification = {
  title: 'Checkout is down',
  importance: 'critical' as const,
  type: 'healthcheck.status_changed',
};

beforeAll(async () => {
  database = await createTestDatabase(deliveryMigrations());
  server = await startDeliveryProcess(database.db, [email.strategy, sms.strategy]);
  await configureStrategy(database.db, 'email');
  await configureStrategy(database.db, 'sms');
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
});

const context = () => server.contextFor(servicePrincipal('subscriptions-test'));

describe('enqueueDeliveries', () => {
  describe('works', () => {
    it('writes one delivery per user and channel for many users, in the order of the plan', async () => {
      const emails = Array.from({ length: 2_000 }, (_, index) => `many-${index}@example.com`);
      const userIds = await createUsers(database.db, emails, ['email', 'sms'].map(useRule));
      const { notificationId, deliveries: queued } = await enqueueDeliveries(
        server.state,
        context(),
        { kind: 'external', userIds, notification },
      );
      expect(queued).toHaveLength(4_000);
      expect(queued.slice(0, 2).map((row) => [row.userId, row.strategyId])).toEqual([
        [userIds[0], qualified('email')],
        [userIds[1], qualified('email')],
      ]);
      expect(queued.every((row) => row.status === 'pending')).toBe(true);
      const [message] = await database.db
        .select()
        .from(messages)
        .where(eq(messages.id, notificationId));
      expect(message).toMatchObject({ caller: 'service:subscriptions-test', kind: 'external' });
    });

    it('writes every delivery skipped with the suppression reason', async () => {
      const [user] = await createUsers(database.db, ['quiet@example.com'], [useRule('email')]);
      const { deliveries: queued } = await enqueueDeliveries(server.state, context(), {
        kind: 'external',
        userIds: [user!],
        notification,
        suppressedReason: 'Suppressed: the system is in maintenance (Nightly upgrade)',
      });
      expect(queued).toEqual([
        expect.objectContaining({
          status: 'skipped',
          skipReason: 'Suppressed: the system is in maintenance (Nightly upgrade)',
          finishedAt: expect.any(String),
        }),
      ]);
    });

    it("leaves nothing behind when the caller's transaction rolls back", async () => {
      const [user] = await createUsers(database.db, ['rollback@example.com'], [useRule('email')]);
      let notificationId = '';
      await expect(
        database.db.transaction(async (tx) => {
          const queued = await enqueueDeliveries(
            server.state,
            {
              ...context(),
              db: tx,
              inTransaction: true,
              afterCommit: () => {},
            },
            { kind: 'external', userIds: [user!], notification },
          );
          notificationId = queued.notificationId;
          expect(queued.deliveries).toHaveLength(1);
          throw new Error('the batch failed later');
        }),
      ).rejects.toThrow('the batch failed later');
      const left = await database.db
        .select()
        .from(deliveries)
        .where(eq(deliveries.messageId, notificationId));
      expect(left).toEqual([]);
    });
  });
});
