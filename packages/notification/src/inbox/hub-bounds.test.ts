import { randomUUID } from 'node:crypto';
import { silentLogger } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inbox } from '../db/schema.ts';
import { inboxMigrations, note } from '../testing/fixture.ts';
import { INBOX_CHANNEL } from './changes.ts';
import type { CountUnreadByUser } from './hub.ts';
import { InboxHub } from './hub.ts';
import type { InboxEvent } from './schemas.ts';
import { countUnreadByUser, insertNotifications, markAsRead } from './service.ts';
import type { InboxStreamLimits } from './stream-limits.ts';
import { streamInbox } from './stream.ts';

let database: DatabaseHandle;
const hubs: InboxHub[] = [];
beforeAll(async () => {
  database = await createTestDatabase(inboxMigrations());
});
afterAll(async () => {
  for (const hub of hubs) await hub.stop();
  await database.close();
});

async function startHub(
  limits: InboxStreamLimits = { perUser: 20, perProcess: 1_000 },
  count: CountUnreadByUser = countUnreadByUser,
) {
  const hub = new InboxHub(database.db, silentLogger, limits, count);
  await hub.start(database.listen);
  hubs.push(hub);
  return hub;
}

/** Resolves with `value`, or with 'timeout' after `ms` (tests never wait without bound). */
function within<T>(promise: Promise<T>, ms = 5_000): Promise<T | 'timeout'> {
  return Promise.race([
    promise,
    new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref()),
  ]);
}

async function waitFor(condition: () => boolean, what: string) {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Writes notifications before a hub starts, and waits until their announcement has gone by: on
 * PostgreSQL the LISTEN connection is shared, so a late announcement would reach a new hub too.
 */
async function writtenBeforeTheHub(userId: string, titles: string[]) {
  let heard = 0;
  const unlisten = await database.listen(INBOX_CHANNEL, (payload) => {
    if (payload.startsWith('new:') && payload.includes(userId)) heard += 1;
  });
  try {
    for (const title of titles) await insertNotifications(database.db, [userId], note(title));
    await waitFor(() => heard === titles.length, 'the announcements');
  } finally {
    await unlisten();
  }
}

function open(hub: InboxHub, userId: string) {
  const controller = new AbortController();
  const stream = streamInbox(hub, database.db, userId, controller.signal);
  return {
    next: async (): Promise<InboxEvent | 'ended' | 'timeout'> => {
      const result = await within(stream.next());
      return result === 'timeout' ? result : result.done ? 'ended' : result.value;
    },
    close: () => controller.abort(),
  };
}

/** Events of `tab` until one that `matches`; `what` names it when the stream ends first. */
async function untilEvent(
  tab: ReturnType<typeof open>,
  what: string,
  matches: (event: InboxEvent) => boolean,
) {
  for (;;) {
    const event = await tab.next();
    if (event === 'ended' || event === 'timeout') throw new Error(`no ${what}: ${event}`);
    if (matches(event)) return;
  }
}

/** Events of `tab` until an unread count equal to `count`. */
const untilCount = (tab: ReturnType<typeof open>, count: number) =>
  untilEvent(tab, `count ${count}`, (event) => event.kind === 'unread' && event.count === count);

/** Events of `tab` until the notification titled `title`. */
const untilNotification = (tab: ReturnType<typeof open>, title: string) =>
  untilEvent(
    tab,
    `"${title}"`,
    (event) => event.kind === 'notification' && event.notification.title === title,
  );

describe('stream limits', () => {
  it("opening one stream past a user's limit closes that user's oldest stream", async () => {
    const hub = await startHub({ perUser: 3, perProcess: 100 });
    const user = randomUUID();
    const tabs = [open(hub, user), open(hub, user), open(hub, user)];
    for (const tab of tabs) expect(await tab.next()).toEqual({ kind: 'unread', count: 0 });
    expect(hub.openStreams).toBe(3);

    const fourth = open(hub, user);
    expect(await fourth.next()).toEqual({ kind: 'unread', count: 0 });
    expect(await tabs[0]!.next()).toBe('ended');
    expect(hub.openStreams).toBe(3);

    await insertNotifications(database.db, [user], note('still live'));
    for (const tab of [tabs[1]!, tabs[2]!, fourth]) {
      expect(await tab.next()).toMatchObject({ kind: 'notification' });
      expect(await tab.next()).toEqual({ kind: 'unread', count: 1 });
    }
    for (const tab of [...tabs, fourth]) tab.close();
    expect(hub.openStreams).toBe(0);
  });

  it("refuses a new stream past the process's limit (TOO_MANY_REQUESTS with a retry time); a user at their own limit still gets in", async () => {
    const hub = await startHub({ perUser: 2, perProcess: 3 });
    const [ada, bob, cyd] = [randomUUID(), randomUUID(), randomUUID()];
    const tabs = [open(hub, ada), open(hub, ada), open(hub, bob)];
    expect(hub.openStreams).toBe(3);

    let refused: unknown;
    try {
      open(hub, cyd);
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      data: { retryAfter: expect.any(Number) },
    });
    expect(hub.openStreams).toBe(3);

    // Ada replaces her oldest stream: the process holds no more than before.
    const adaAgain = open(hub, ada);
    expect(await adaAgain.next()).toEqual({ kind: 'unread', count: 0 });
    expect(await tabs[0]!.next()).toEqual({ kind: 'unread', count: 0 });
    expect(await tabs[0]!.next()).toBe('ended');
    expect(hub.openStreams).toBe(3);

    tabs[2]!.close();
    const cydNow = open(hub, cyd);
    expect(await cydNow.next()).toEqual({ kind: 'unread', count: 0 });
    for (const tab of [...tabs, adaAgain, cydNow]) tab.close();
    expect(hub.openStreams).toBe(0);
  });
});

describe('work per change', () => {
  it("reads a user's unread count once per change, however many streams that user has open", async () => {
    const user = randomUUID();
    await writtenBeforeTheHub(user, ['one']);
    let counts = 0;
    const hub = await startHub({ perUser: 8, perProcess: 100 }, (db, userIds) => {
      counts += 1;
      return countUnreadByUser(db, userIds);
    });
    const tabs = Array.from({ length: 8 }, () => open(hub, user));
    for (const tab of tabs) expect(await tab.next()).toEqual({ kind: 'unread', count: 1 });

    await database.db.transaction((tx) => markAsRead(tx, user, { all: true }));
    for (const tab of tabs) expect(await tab.next()).toEqual({ kind: 'unread', count: 0 });
    expect(counts).toBe(1);
    for (const tab of tabs) tab.close();
  });

  it('merges a burst of changes heard while a count is being read into one more count', async () => {
    const user = randomUUID();
    const burst = 12;
    await writtenBeforeTheHub(
      user,
      Array.from({ length: burst }, (_, index) => `n${index}`),
    );
    let counts = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hub = await startHub({ perUser: 8, perProcess: 100 }, async (db, userIds) => {
      counts += 1;
      if (counts === 1) await gate;
      return countUnreadByUser(db, userIds);
    });
    const ids = (
      await database.db.select({ id: inbox.id }).from(inbox).where(eq(inbox.userId, user))
    ).map((row) => row.id);
    const tabs = Array.from({ length: 3 }, () => open(hub, user));
    for (const tab of tabs) expect(await tab.next()).toEqual({ kind: 'unread', count: burst });

    // Another listener on the channel tells when every change has been announced.
    let heard = 0;
    const unlisten = await database.listen(INBOX_CHANNEL, (payload) => {
      if (payload === `unread:${user}`) heard += 1;
    });
    try {
      await database.db.transaction((tx) => markAsRead(tx, user, { ids: [ids[0]!] }));
      await waitFor(() => counts === 1, 'the first count');
      for (const id of ids.slice(1)) {
        await database.db.transaction((tx) => markAsRead(tx, user, { ids: [id] }));
      }
      await waitFor(() => heard === burst, 'every change announced');
      await new Promise((resolve) => setImmediate(resolve));
      release();
      for (const tab of tabs) await untilCount(tab, 0);
      // Changes are handled in order: once a later one has reached every stream, the burst is done.
      await insertNotifications(database.db, [user], note('after the burst'));
      // Waited for by the notification itself, not a count of 1: the burst's own count may be
      // read after this insert and already say 1, before the round of the insert has counted.
      for (const tab of tabs) {
        await untilNotification(tab, 'after the burst');
        await untilCount(tab, 1);
      }
      // The gated count, one for the whole burst, one for the notification after it.
      expect(counts).toBe(3);
    } finally {
      release();
      await unlisten();
      for (const tab of tabs) tab.close();
    }
  });
});
