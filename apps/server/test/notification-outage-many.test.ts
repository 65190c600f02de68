import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookOutagePerFile } from './support/webhook-outage.ts';

/**
 * Issue 22 item 7 at scale: 1 500 webhook deliveries, and a throwaway PostgreSQL cluster stopped
 * for 15 s in the middle of them. Sends that finish while the database is away are recorded once
 * it is back, so the receiver counts every delivery id exactly once, also after the lease.
 */
const USERS = 30;
const SENDS = 50;
const TOTAL = USERS * SENDS;
const OUTAGE_AFTER = 500;
const OUTAGE_MS = 15_000;
/**
 * A claim outlasts the outage with room for the cluster's restart and the sends claimed just
 * before it: a send that finished while the database was away is recorded once it is back, but
 * a lease lapsed by then lets the next tick claim the delivery again and send it twice. 20 s
 * (5 s more than the outage) ran out on a busy machine, where the restart alone takes seconds.
 */
const leaseMs = 40_000;
/**
 * A send still running after this long counts as failed and is sent again, which the receiver
 * would count twice. The receiver answers in 20 ms, but with 100 sends in flight in a process
 * sharing a busy machine with other test files a send can take seconds: bounded below the lease.
 */
const sendTimeoutMs = 15_000;

const received = new Map<string, number>();
let outage: Promise<void> | undefined;

const rig = webhookOutagePerFile({
  delivery: { leaseMs, sendTimeoutMs, tickIntervalMs: 200 },
  answer(id, response) {
    received.set(id, (received.get(id) ?? 0) + 1);
    if (received.size === OUTAGE_AFTER && !outage) {
      outage = (async () => {
        await rig.cluster.stop();
        await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
        await rig.cluster.start();
      })();
    }
    // A moment's work, so that sends are in flight when the database goes away.
    setTimeout(() => response.writeHead(200).end('ok'), 20);
  },
});

const deliveryRows = () =>
  queryRows<{ id: string; status: string; attempts: number; lastError: string | null }>(
    rig.database.db,
    sql`select id, status, attempts, last_error as "lastError" from notification.deliveries`,
  );

describe('1 500 webhook deliveries with a 15 s database outage in the middle', () => {
  it('each delivery arrives exactly once, counted at the receiver by its delivery id', async () => {
    const emails = Array.from({ length: USERS }, (_, index) => `many-${index}@example.com`);
    const userIds = await rig.webhookUsers(emails);
    for (let index = 0; index < SENDS; index += 1) await rig.send(userIds, `Alert ${index}`);
    rig.server.worker().start();

    // Bounded: the outage, every send, then a whole lease in which a dropped outcome's
    // delivery would be taken over and sent again.
    const deadline = Date.now() + OUTAGE_MS + 60_000;
    let rows: Awaited<ReturnType<typeof deliveryRows>> = [];
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (!outage || received.size < TOTAL) continue;
      await outage;
      rows = await deliveryRows().catch(() => []);
      if (rows.length === TOTAL && rows.every((row) => row.status === 'sent')) break;
    }
    expect(outage).toBeDefined();
    expect(rows.filter((row) => row.status === 'sent')).toHaveLength(TOTAL);
    const settledAt = Date.now();
    while (Date.now() - settledAt < leaseMs + 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    expect(received.size).toBe(TOTAL);
    expect([...received.values()].filter((count) => count !== 1)).toEqual([]);
    const ids = new Set((await deliveryRows()).map((row) => row.id));
    expect([...received.keys()].filter((id) => !ids.has(id))).toEqual([]);
    // Not asserted: attempts per row. Under load some deliveries are claimed but not yet sent
    // when the database stops, and are claimed again once their lease lapses (attempts 2, "lease
    // lapsed"); what matters, and is asserted above, is that no receiver saw any of them twice.
    const retried = rows.filter((row) => row.attempts > 1).length;
    console.info(`${retried} of ${TOTAL} deliveries were claimed again after a lapsed lease`);
  }, 240_000);
});
