import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { testPageScope } from '@checkline/core/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscriptions as subscriptionRows } from '../db/schema.ts';
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  markEventHandled,
  subscriptionsConcerning,
  updateSubscription,
} from './service.ts';

let database: DatabaseHandle;
const [anaId, benId, teamId, appId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
const [ana, ben, team, app] = [
  { userId: anaId },
  { userId: benId },
  { teamId },
  { applicationId: appId },
];
const [api, db] = [randomUUID(), randomUUID()];
const group = randomUUID();

beforeAll(async () => {
  database = await createTestDatabase([
    { pluginId: 'notification', folder: fileURLToPath(new URL('../../drizzle', import.meta.url)) },
  ]);
});
beforeEach(async () => {
  await database.db.delete(subscriptionRows);
});
afterAll(() => database.close());

describe('subscription service works', () => {
  it('finds the subscriptions of a kind reaching a system directly, through a group, or to everything', async () => {
    const toApi = await createSubscription(database.db, ana, { systemId: api, events: ['health'] });
    const toGroup = await createSubscription(database.db, ben, {
      groupId: group,
      events: ['health', 'incident'],
    });
    await createSubscription(database.db, ben, { events: ['incident'] });
    await createSubscription(database.db, ana, { systemId: db, events: ['health'] });
    const health = await subscriptionsConcerning(database.db, 'health', [api], [group]);
    expect(health).toHaveLength(2);
    expect(health).toEqual(
      expect.arrayContaining([
        { userId: anaId, teamId: null, applicationId: null, systemId: api, groupId: null },
        { userId: benId, teamId: null, applicationId: null, systemId: null, groupId: group },
      ]),
    );
    const incidents = await subscriptionsConcerning(database.db, 'incident', [api], []);
    expect(incidents).toEqual([
      { userId: benId, teamId: null, applicationId: null, systemId: null, groupId: null },
    ]);
    expect(toApi.events).toEqual(['health']);
    expect(toGroup.groupId).toBe(group);
  });

  it('answers only the subscriptions to everything for an event concerning no system', async () => {
    await createSubscription(database.db, ana, { systemId: api, events: ['incident'] });
    await createSubscription(database.db, ben, { events: ['incident'] });
    expect(await subscriptionsConcerning(database.db, 'incident', [], [])).toEqual([
      { userId: benId, teamId: null, applicationId: null, systemId: null, groupId: null },
    ]);
  });

  it('keeps a team’s subscriptions apart from its members’ and finds them by team', async () => {
    const ofTeam = await createSubscription(database.db, team, {
      systemId: api,
      events: ['health'],
    });
    expect(ofTeam).toMatchObject({ userId: null, teamId, applicationId: null, systemId: api });
    await createSubscription(database.db, ana, { systemId: api, events: ['health'] });
    expect(await subscriptionsConcerning(database.db, 'health', [api], [])).toEqual(
      expect.arrayContaining([
        { userId: null, teamId, applicationId: null, systemId: api, groupId: null },
        { userId: anaId, teamId: null, applicationId: null, systemId: api, groupId: null },
      ]),
    );
    const page = await listSubscriptions(database.db, { teamId }, { limit: 10 }, testPageScope());
    expect(page.subscriptions.map((item) => item.id)).toEqual([ofTeam.id]);
  });

  it('changes the kinds of events of a subscription, its own user’s or (routing) any', async () => {
    const mine = await createSubscription(database.db, ana, { events: ['health'] });
    await expect(
      updateSubscription(database.db, ana, { id: mine.id, events: ['incident', 'incident'] }),
    ).resolves.toMatchObject({ id: mine.id, events: ['incident'] });
    const ofTeam = await createSubscription(database.db, team, { events: ['health'] });
    await expect(
      updateSubscription(database.db, 'any', { id: ofTeam.id, events: ['maintenance'] }),
    ).resolves.toMatchObject({ teamId, events: ['maintenance'] });
  });

  it('keeps an application’s subscriptions its own: found, listed, changed and ended by it', async () => {
    const ofApp = await createSubscription(database.db, app, { systemId: api, events: ['health'] });
    expect(ofApp).toMatchObject({ userId: null, teamId: null, applicationId: appId });
    await createSubscription(database.db, ana, { systemId: api, events: ['health'] });
    expect(await subscriptionsConcerning(database.db, 'health', [api], [])).toEqual(
      expect.arrayContaining([
        { userId: null, teamId: null, applicationId: appId, systemId: api, groupId: null },
      ]),
    );
    const page = await listSubscriptions(
      database.db,
      { applicationId: appId },
      { limit: 10 },
      testPageScope(),
    );
    expect(page.subscriptions.map((item) => item.id)).toEqual([ofApp.id]);
    await expect(
      updateSubscription(database.db, app, { id: ofApp.id, events: ['incident'] }),
    ).resolves.toMatchObject({ applicationId: appId, events: ['incident'] });
    await expect(deleteSubscription(database.db, app, ofApp.id)).resolves.toEqual({
      id: ofApp.id,
      deleted: true,
    });
  });

  it('refuses reminders on an application’s subscription in the table itself', async () => {
    await expect(
      createSubscription(database.db, app, { events: ['health'], remindEverySeconds: 60 }),
    ).rejects.toThrow();
  });

  it('records a handled event once: a redelivery answers false', async () => {
    const eventId = randomUUID();
    expect(await markEventHandled(database.db, eventId)).toBe(true);
    expect(await markEventHandled(database.db, eventId)).toBe(false);
  });

  it('pages a user’s subscriptions newest first', async () => {
    const first = await createSubscription(database.db, ana, { systemId: api, events: ['health'] });
    const second = await createSubscription(database.db, ana, { events: ['health'] });
    await createSubscription(database.db, ben, { events: ['health'] });
    // Two inserts may share a clock tick (PGlite's clock counts milliseconds): set them apart.
    await writtenAt(first.id, '2030-01-01T00:00:00Z');
    await writtenAt(second.id, '2030-01-01T00:00:01Z');
    expect(await walkAnasPages()).toEqual([second.id, first.id]);
  });

  it('pages subscriptions written at the same instant by id, each once', async () => {
    const targets = [undefined, api, db, group];
    const created = [];
    for (const [index, target] of targets.entries()) {
      const on = index === 3 ? { groupId: target } : target ? { systemId: target } : {};
      created.push(await createSubscription(database.db, ana, { ...on, events: ['health'] }));
    }
    for (const { id } of created) await writtenAt(id, '2030-01-01T00:00:00Z');
    const byIdDescending = created.map(({ id }) => id).sort((a, b) => b.localeCompare(a));
    expect(await walkAnasPages()).toEqual(byIdDescending);
  });
});

const writtenAt = (id: string, at: string) =>
  database.db
    .update(subscriptionRows)
    .set({ createdAt: new Date(at) })
    .where(eq(subscriptionRows.id, id));

/** Ana's subscription ids, one page of one at a time, up to the page without a cursor. */
async function walkAnasPages() {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let round = 0; round < 10; round += 1) {
    const page = await listSubscriptions(database.db, ana, { limit: 1, cursor }, testPageScope());
    ids.push(...page.subscriptions.map((item) => item.id));
    if (page.nextCursor === null) return ids;
    cursor = page.nextCursor;
  }
  throw new Error('did not end within 10 pages');
}

describe('subscription service rejects bad input', () => {
  it('answers CONFLICT for a second subscription to the same target, everything included', async () => {
    await createSubscription(database.db, ana, { events: ['health'] });
    await expect(
      createSubscription(database.db, ana, { events: ['incident'] }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await createSubscription(database.db, ana, { systemId: api, events: ['health'] });
    await expect(
      createSubscription(database.db, ana, { systemId: api, events: ['health'] }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(
      createSubscription(database.db, ben, { events: ['health'] }),
    ).resolves.toMatchObject({ systemId: null });
    await createSubscription(database.db, team, { systemId: api, events: ['health'] });
    await expect(
      createSubscription(database.db, team, { systemId: api, events: ['incident'] }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await createSubscription(database.db, app, { systemId: api, events: ['health'] });
    await expect(
      createSubscription(database.db, app, { systemId: api, events: ['incident'] }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining(`Application ${appId} is already subscribed`),
    });
  });
});

describe('subscription service refuses the wrong caller', () => {
  it('answers NOT_FOUND for changing another user’s or a team’s subscription without routing', async () => {
    const mine = await createSubscription(database.db, ana, { events: ['health'] });
    const ofTeam = await createSubscription(database.db, team, { events: ['health'] });
    const ofApp = await createSubscription(database.db, app, { events: ['health'] });
    for (const id of [mine.id, ofTeam.id, ofApp.id]) {
      await expect(
        updateSubscription(database.db, ben, { id, events: ['incident'] }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(deleteSubscription(database.db, ben, id)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    }
    await expect(deleteSubscription(database.db, 'any', ofTeam.id)).resolves.toEqual({
      id: ofTeam.id,
      deleted: true,
    });
  });

  it('answers NOT_FOUND for deleting another user’s subscription and keeps it', async () => {
    const mine = await createSubscription(database.db, ana, { events: ['health'] });
    await expect(deleteSubscription(database.db, ben, mine.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(deleteSubscription(database.db, ana, mine.id)).resolves.toEqual({
      id: mine.id,
      deleted: true,
    });
  });
});
