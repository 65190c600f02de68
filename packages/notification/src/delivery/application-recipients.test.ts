import { servicePrincipal } from '@checkline/core/contract';
import type { DatabaseHandle } from '@checkline/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries as deliveryRows } from '../db/schema.ts';
import type { DeliveryProcess } from '../testing/fixture.ts';
import {
  createApplications,
  qualified,
  startDeliveryFixture,
  useRule,
} from '../testing/fixture.ts';
import { recordingStrategy } from '../testing/recording-strategy.ts';
import { writeUserChannel } from '../testing/settings-rows.ts';
import { urlHookFields } from '../testing/url-hook.ts';
import { enqueueDeliveries } from './enqueue.ts';

/**
 * Applications as delivery recipients: reached only through a strategy that reaches
 * applications, at their own settings, in the same queue as people; gone, they are skipped.
 */
const hook = recordingStrategy(urlHookFields(true));
const email = recordingStrategy({ id: 'email' });
const notification = {
  title: 'Now unhealthy: Checkout',
  importance: 'critical' as const,
  type: 'healthcheck.status_changed',
};
const OWN_URL = 'https://own.example/hook';

let database: DatabaseHandle;
let server: DeliveryProcess;
let close: (() => Promise<void>) | undefined;
let names = 0;

beforeAll(async () => {
  ({ database, server, close } = await startDeliveryFixture([hook.strategy, email.strategy], {
    settingsOf: (id) => (id === 'hook' ? { config: { url: 'https://fallback.example/hook' } } : {}),
  }));
});
afterAll(() => close?.());

const context = () => server.contextFor(servicePrincipal('subscriptions-test'));

/** A new application allowed both channels, with its own hook URL unless `withUrl` is false. */
async function application(withUrl = true): Promise<string> {
  const [id] = await createApplications(
    database.db,
    [`integrator-${++names}`],
    [useRule('hook'), useRule('email')],
  );
  if (withUrl)
    await writeUserChannel(database.db, id!, qualified('hook'), { config: { url: OWN_URL } });
  return id!;
}

const toApplications = (userIds: string[], strategyId?: string) =>
  enqueueDeliveries(server.state, context(), {
    kind: 'external',
    recipientKind: 'application',
    userIds,
    notification,
    strategyId,
  });

describe('deliveries to applications', () => {
  describe('works', () => {
    it('queues an application only through a strategy that reaches applications, and sends to its own URL', async () => {
      const [set, unset] = [await application(), await application(false)];
      const { deliveries } = await toApplications([set, unset]);
      expect(deliveries.map((row) => [row.userId, row.recipientKind, row.strategyId])).toEqual([
        [set, 'application', qualified('hook')],
      ]);
      const before = hook.sent.length;
      await server.worker().drain();
      const sent = hook.sent.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        contact: OWN_URL,
        userConfig: { url: OWN_URL },
        delivery: { id: deliveries[0]!.id, userId: set },
      });
      expect(sent[0]!.unsubscribeUrl).toBeUndefined();
      expect(email.sent).toHaveLength(0);
    });
  });

  describe('rejects bad input', () => {
    it('answers unknown application ids and names the channel that does not reach applications', async () => {
      const missing = '00000000-0000-4000-8000-00000000f00d';
      const known = await application();
      const answer = await toApplications([known, missing], qualified('email'));
      expect(answer.unknownUserIds).toEqual([missing]);
      expect(answer.deliveries).toMatchObject([
        {
          userId: known,
          status: 'skipped',
          skipReason: `Channel ${qualified('email')} does not reach applications`,
        },
      ]);
    });
  });

  describe('refuses the wrong recipient', () => {
    it('skips a queued delivery once its application is deleted', async () => {
      const doomed = await application();
      const { deliveries } = await toApplications([doomed]);
      await database.db.execute(sql`delete from auth.applications where id = ${doomed}`);
      const before = hook.sent.length;
      await server.worker().drain();
      expect(hook.sent.length).toBe(before);
      const [row] = await database.db
        .select()
        .from(deliveryRows)
        .where(eq(deliveryRows.id, deliveries[0]!.id));
      expect(row).toMatchObject({ status: 'skipped', skipReason: 'No such application' });
      const again = await toApplications([doomed]);
      expect(again).toMatchObject({ deliveries: [], unknownUserIds: [doomed] });
    });
  });
});
