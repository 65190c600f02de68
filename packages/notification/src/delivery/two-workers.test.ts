import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationAccess } from '../access.ts';
import { channelHealth, deliveries, inbox } from '../db/schema.ts';
import { CHANNEL_FAILING_TYPE } from './channel-health.ts';
import { LEASE_LAPSED } from './claims.ts';
import type { DeliveryResult } from '@checkline/notification-node';
import { processDatabases } from '../testing/process-databases.ts';
import { recordingStrategy } from '../testing/recording-strategy.ts';
import { testPrincipal } from '@checkline/core/testing';
import {
  configureStrategy,
  createUsers,
  deliveryMigrations,
  qualified,
  startDeliveryProcess,
  useRule,
} from '../testing/fixture.ts';

/**
 * Two server processes on one database: on PostgreSQL each has its own connection pool (as two
 * processes would); on PGlite they share its one connection, which still exercises the claims.
 */
let database: DatabaseHandle;
let pools: ReturnType<typeof processDatabases>;
const stops: (() => Promise<void>)[] = [];
const sender = testPrincipal([notificationAccess.send]);

async function startProcess(...args: Parameters<typeof startDeliveryProcess>) {
  const started = await startDeliveryProcess(...args);
  stops.push(started.stop);
  return started;
}

beforeAll(async () => {
  database = await createTestDatabase(deliveryMigrations());
  pools = processDatabases(database);
});

afterAll(async () => {
  for (const stop of stops) await stop();
  await pools?.close();
  await database?.close();
});

/** Moves the message's leases into the past, as the clock would once they run out. */
async function lapseLeases(messageId: string): Promise<void> {
  await database.db
    .update(deliveries)
    .set({ claimedUntil: new Date(Date.now() - 1_000) })
    .where(eq(deliveries.messageId, messageId));
}

describe('two workers on one database', () => {
  it('deliver many deliveries, each exactly once', async () => {
    const sends = new Map<string, number>();
    const count = (worker: string) => (context: { contact: string }) => {
      sends.set(context.contact, (sends.get(context.contact) ?? 0) + 1);
      perWorker[worker] = (perWorker[worker] ?? 0) + 1;
      return Promise.resolve<DeliveryResult>({ success: true });
    };
    const perWorker: Record<string, number> = {};
    const settings = { batchSize: 10, concurrency: 8 };
    const first = await startProcess(
      pools.connect(),
      [recordingStrategy({ id: 'bulk' }, count('first')).strategy],
      settings,
    );
    const second = await startProcess(
      pools.connect(),
      [recordingStrategy({ id: 'bulk' }, count('second')).strategy],
      settings,
    );
    await configureStrategy(database.db, 'bulk');
    const emails = Array.from({ length: 300 }, (_, index) => `bulk-${index}@example.com`);
    const userIds = await createUsers(database.db, emails, [useRule('bulk')]);
    const { notificationId } = await first.notification(sender).sendExternal({
      userIds,
      notification: { title: 'Many', type: 'test.bulk' },
    });

    await Promise.all([first.worker().drain(30_000), second.worker().drain(30_000)]);

    expect(sends.size).toBe(300);
    expect([...sends.values()].every((times) => times === 1)).toBe(true);
    expect((perWorker.first ?? 0) + (perWorker.second ?? 0)).toBe(300);
    const rows = await database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.messageId, notificationId));
    expect(rows).toHaveLength(300);
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    expect(rows.every((row) => row.attemptLog.length === 1)).toBe(true);
  });

  it('report a channel that keeps failing to each administrator once, whichever worker saw it', async () => {
    const broken = () =>
      Promise.resolve<DeliveryResult>({ success: false, error: 'HTTP 503', permanent: true });
    const settings = { batchSize: 5, concurrency: 4, channelFailuresBeforeReport: 3 };
    const first = await startProcess(
      pools.connect(),
      [recordingStrategy({ id: 'broken' }, broken).strategy],
      settings,
    );
    const second = await startProcess(
      pools.connect(),
      [recordingStrategy({ id: 'broken' }, broken).strategy],
      settings,
    );
    await configureStrategy(database.db, 'broken');
    const [ops] = await createUsers(
      database.db,
      ['ops@example.com'],
      [notificationAccess.manageStrategies.id],
    );
    const emails = Array.from({ length: 40 }, (_, index) => `broken-${index}@example.com`);
    const userIds = await createUsers(database.db, emails, [useRule('broken')]);
    await first.notification(sender).sendExternal({
      userIds,
      strategyId: qualified('broken'),
      notification: { title: 'Down', type: 'test.broken' },
    });

    await Promise.all([first.worker().drain(30_000), second.worker().drain(30_000)]);

    const reports = await database.db
      .select({ userId: inbox.userId })
      .from(inbox)
      .where(eq(inbox.type, CHANNEL_FAILING_TYPE));
    const perUser = new Map<string, number>();
    for (const row of reports) perUser.set(row.userId, (perUser.get(row.userId) ?? 0) + 1);
    expect(perUser.get(ops!)).toBe(1);
    // The fixture's own first admin hears too, once; nobody else.
    expect(perUser.size).toBe(2);
    expect([...perUser.values()]).toEqual([1, 1]);
    const [health] = await database.db.select().from(channelHealth);
    expect(health).toMatchObject({ strategyId: qualified('broken'), consecutiveFailures: 40 });
    expect(health!.reportedAt).not.toBeNull();
  });

  it("take over a dead worker's delivery once its lease lapses, and ignore the dead one's late answer", async () => {
    let answerLate: (result: DeliveryResult) => void = () => {};
    const stuck = recordingStrategy(
      { id: 'relay' },
      () => new Promise<DeliveryResult>((resolve) => (answerLate = resolve)),
    );
    const healthy = recordingStrategy({ id: 'relay' });
    // The stuck worker's send never returns while the test runs: as if its process had died.
    // A lease long enough to hold however slow the machine is; the test lapses it below.
    const dead = await startProcess(pools.connect(), [stuck.strategy], {
      leaseMs: 600_000,
      sendTimeoutMs: 60_000,
    });
    const alive = await startProcess(pools.connect(), [healthy.strategy], { leaseMs: 300 });
    await configureStrategy(database.db, 'relay');
    const [user] = await createUsers(database.db, ['relay@example.com'], [useRule('relay')]);
    const { notificationId } = await alive.notification(sender).sendExternal({
      userIds: [user!],
      strategyId: qualified('relay'),
      notification: { title: 'Taken over', type: 'test.relay' },
    });

    expect(await dead.worker().tick()).toBe(1);
    expect(stuck.sent).toHaveLength(1);
    // While the lease holds, nobody else takes it.
    expect(await alive.worker().tick()).toBe(0);
    await lapseLeases(notificationId);
    await alive.worker().drain(10_000);
    expect(healthy.sent.map((context) => context.contact)).toEqual(['relay@example.com']);

    answerLate({ success: false, error: 'too late' });
    await dead.worker().idle();
    const [row] = await database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.messageId, notificationId));
    // The dead worker's attempt counts (it may have reached the provider), and the log says so.
    expect(row).toMatchObject({ status: 'sent', attempts: 2, lastError: LEASE_LAPSED });
    expect(row!.claimToken).toBeNull();
    expect(row!.attemptLog.map((attempt) => [attempt.outcome, attempt.error])).toEqual([
      ['retry', LEASE_LAPSED],
      ['sent', undefined],
    ]);
  });

  it('fail a delivery whose last attempt died with its worker, without sending it again', async () => {
    let answerLate: (result: DeliveryResult) => void = () => {};
    const stuck = recordingStrategy(
      { id: 'last' },
      () => new Promise<DeliveryResult>((resolve) => (answerLate = resolve)),
    );
    const healthy = recordingStrategy({ id: 'last' });
    const dead = await startProcess(pools.connect(), [stuck.strategy], {
      leaseMs: 200,
      sendTimeoutMs: 60_000,
      maxAttempts: 1,
    });
    const alive = await startProcess(pools.connect(), [healthy.strategy], { leaseMs: 200 });
    await configureStrategy(database.db, 'last');
    const [user] = await createUsers(database.db, ['last@example.com'], [useRule('last')]);
    const { notificationId } = await dead.notification(sender).sendExternal({
      userIds: [user!],
      strategyId: qualified('last'),
      notification: { title: 'Last chance', type: 'test.last' },
    });

    expect(await dead.worker().tick()).toBe(1);
    await alive.worker().drain(10_000);

    expect(healthy.sent).toEqual([]);
    const [row] = await database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.messageId, notificationId));
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: `${LEASE_LAPSED}; no attempts left`,
    });
    expect(row!.attemptLog.map((attempt) => attempt.outcome)).toEqual(['retry', 'failed']);
    answerLate({ success: true });
    await dead.worker().idle();
    const [after] = await database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.messageId, notificationId));
    expect(after!.status).toBe('failed');
  });
});
