import { randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryStatus } from '../db/schema.ts';
import { deliveries, messages } from '../db/schema.ts';
import { deliveryMigrations } from '../testing/fixture.ts';
import { claimDueDeliveries, recordOutcomes } from './claims.ts';

/**
 * The order of a system's messages at the claim: a delivery is not claimed while an earlier one to
 * the same user through the same strategy about any of its systems is pending (due, in flight or
 * waiting for a retry); every other delivery is claimed beside it.
 */
let database: DatabaseHandle;
const user = randomUUID();
const otherUser = randomUUID();
const systemA = randomUUID();
const systemB = randomUUID();
const systemC = randomUUID();
let created = Date.parse('2026-01-01T00:00:00Z');

beforeAll(async () => {
  database = await createTestDatabase(deliveryMigrations());
});
afterAll(() => database?.close());
beforeEach(async () => {
  await database.db.delete(deliveries);
  await database.db.delete(messages);
});

interface DeliveryFields {
  userId?: string;
  strategyId?: string;
  systemIds?: string[];
  status?: DeliveryStatus;
  nextAttemptAt?: Date;
}

/** A delivery created a second after the one before it. */
async function delivery(fields: DeliveryFields = {}): Promise<string> {
  created += 1_000;
  const userId = fields.userId ?? user;
  const strategyId = fields.strategyId ?? 'demo.webhook';
  // (message, user, strategy) is unique: each delivery gets its own message.
  const [message] = await database.db
    .insert(messages)
    .values({ kind: 'external', type: 'demo', title: 'Demo', caller: 'service:' })
    .returning({ id: messages.id });
  const [row] = await database.db
    .insert(deliveries)
    .values({
      messageId: message!.id,
      userId,
      strategyId,
      systemIds: fields.systemIds ?? [systemA],
      status: fields.status ?? 'pending',
      nextAttemptAt: fields.nextAttemptAt ?? new Date(created),
      createdAt: new Date(created),
    })
    .returning({ id: deliveries.id });
  return row!.id;
}

const now = () => new Date(created + 60_000);
const claim = () =>
  database.db.transaction((tx) =>
    claimDueDeliveries(tx, { now: now(), limit: 50, leaseMs: 60_000 }),
  );
const claimedIds = async () => new Set((await claim()).map((row) => row.id));

describe('claims keep the order of a system’s messages', () => {
  it('holds a later delivery about the same system while the earlier is due, then in flight, and releases it once sent', async () => {
    const first = await delivery();
    const second = await delivery();
    const claimed = await claim();
    expect(claimed.map((row) => row.id)).toEqual([first]);
    expect(await claimedIds(), 'the first in flight').toEqual(new Set());
    await recordOutcomes(
      database.db,
      [
        {
          claim: claimed[0]!,
          outcome: { status: 'sent', attempt: { at: now().toISOString(), outcome: 'sent' } },
        },
      ],
      now(),
    );
    expect(await claimedIds()).toEqual(new Set([second]));
  });

  it('holds it while the earlier waits for a retry, and releases it once the earlier is given up', async () => {
    const first = await delivery({ nextAttemptAt: new Date(created + 3_600_000) });
    await delivery();
    expect(await claimedIds()).toEqual(new Set());
    await database.db.update(deliveries).set({ status: 'failed' }).where(eq(deliveries.id, first));
    expect((await claimedIds()).size).toBe(1);
  });

  const cases: [string, DeliveryFields, boolean][] = [
    ['another system', { systemIds: [systemB] }, true],
    ['no system', { systemIds: [] }, true],
    ['the same system, through another strategy', { strategyId: 'demo.email' }, true],
    ['the same system, to another user', { userId: otherUser }, true],
    ['the same system among others', { systemIds: [systemC, systemA] }, false],
  ];
  it.each(cases)(
    'a later delivery about %s is claimed beside the earlier: %s',
    async (_what, fields, beside) => {
      const first = await delivery();
      const later = await delivery(fields);
      expect(await claimedIds()).toEqual(new Set(beside ? [first, later] : [first]));
    },
  );

  it('does not hold a delivery behind a later one, nor behind finished ones', async () => {
    await delivery({ status: 'sent' });
    await delivery({ status: 'skipped' });
    const due = await delivery();
    // Created later but due first (an earlier claim's retry time is what is compared, not this).
    await delivery({ nextAttemptAt: new Date(created - 10_000) });
    expect(await claimedIds()).toEqual(new Set([due]));
  });
});
