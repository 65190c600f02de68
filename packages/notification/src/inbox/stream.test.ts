import { randomUUID } from 'node:crypto';
import { silentLogger } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inbox } from '../db/schema.ts';
import { createNotificationPlugin } from '../plugin.ts';
import { InboxHub } from './hub.ts';
import type { InboxEvent, NotificationInput } from './schemas.ts';
import { deleteNotification, insertNotifications, markAsRead } from './service.ts';
import { streamInbox } from './stream.ts';

let database: DatabaseHandle;
let hub: InboxHub;
const migrationsFolder = createNotificationPlugin().migrationsFolder!;
const note = (title: string): NotificationInput => ({
  title,
  type: 'test.note',
  importance: 'info',
});

beforeAll(async () => {
  database = await createTestDatabase([{ pluginId: 'notification', folder: migrationsFolder }]);
  hub = new InboxHub(database.db, silentLogger);
  await hub.start(database.listen);
});
afterAll(async () => {
  await hub.stop();
  await database.close();
});

const titled = (title: string) => (event: InboxEvent) =>
  event.kind === 'notification' && event.notification.title === title;

/** Reads a stream in the background; `next()` waits (bounded) for its next event. */
function openStream(userId: string) {
  const controller = new AbortController();
  const stream = streamInbox(hub, database.db, userId, controller.signal);
  return {
    async next(timeoutMs = 5_000): Promise<InboxEvent | 'timeout'> {
      const timeout = new Promise<'timeout'>((resolve) => {
        setTimeout(() => resolve('timeout'), timeoutMs).unref();
      });
      const next = stream.next().then((result) => (result.done ? 'timeout' : result.value));
      return Promise.race([next, timeout]);
    },
    /**
     * Events up to the first matching `wanted`. A change committed just before the stream opened
     * may still be announced after it, so a test waits for the event it expects.
     */
    async until(wanted: (event: InboxEvent) => boolean): Promise<InboxEvent[]> {
      const seen: InboxEvent[] = [];
      for (;;) {
        const event = await this.next();
        if (event === 'timeout') throw new Error(`no such event; saw ${JSON.stringify(seen)}`);
        seen.push(event);
        if (wanted(event)) return seen;
      }
    },
    stream,
    close: () => controller.abort(),
  };
}

describe('works', () => {
  it('sends the unread count first, then new notifications and the count after them', async () => {
    const user = randomUUID();
    await insertNotifications(database.db, [user], note('before'));
    const tab = openStream(user);
    expect(await tab.next()).toEqual({ kind: 'unread', count: 1 });
    await database.db.transaction((tx) =>
      insertNotifications(tx, [user, randomUUID()], note('hi')),
    );
    await tab.until(titled('hi'));
    expect(await tab.next()).toEqual({ kind: 'unread', count: 2 });
    tab.close();
  });

  it('reaches every open tab of the user, and pushes read marks and deletions', async () => {
    const user = randomUUID();
    const [first, second] = [openStream(user), openStream(user)];
    expect(await first.next()).toEqual({ kind: 'unread', count: 0 });
    expect(await second.next()).toEqual({ kind: 'unread', count: 0 });
    await insertNotifications(database.db, [user], note('both'));
    for (const tab of [first, second]) {
      expect(await tab.next()).toMatchObject({ kind: 'notification' });
      expect(await tab.next()).toEqual({ kind: 'unread', count: 1 });
    }
    await insertNotifications(database.db, [user], note('second'));
    for (const tab of [first, second]) {
      expect(await tab.next()).toMatchObject({ kind: 'notification' });
      expect(await tab.next()).toEqual({ kind: 'unread', count: 2 });
    }
    await database.db.transaction((tx) => markAsRead(tx, user, { all: true }));
    expect(await first.next()).toEqual({ kind: 'unread', count: 0 });
    expect(await second.next()).toEqual({ kind: 'unread', count: 0 });
    first.close();
    second.close();
  });

  it('pushes the count when an unread notification is deleted', async () => {
    const user = randomUUID();
    await insertNotifications(database.db, [user], note('doomed'));
    const tab = openStream(user);
    expect(await tab.next()).toEqual({ kind: 'unread', count: 1 });
    const [row] = await database.db.select().from(inbox).where(eq(inbox.userId, user));
    await database.db.transaction((tx) => deleteNotification(tx, user, row!.id));
    await tab.until((event) => event.kind === 'unread' && event.count === 0);
    tab.close();
  });

  it('pushes nothing for a transaction that rolled back', async () => {
    const user = randomUUID();
    const tab = openStream(user);
    expect(await tab.next()).toEqual({ kind: 'unread', count: 0 });
    await expect(
      database.db.transaction(async (tx) => {
        await insertNotifications(tx, [user], note('never'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await insertNotifications(database.db, [user], note('later'));
    const seen = await tab.until(titled('later'));
    expect(seen.filter(titled('never'))).toEqual([]);
    tab.close();
  });

  it('ends the stream when the client goes, and forgets it', async () => {
    const user = randomUUID();
    const tab = openStream(user);
    expect(await tab.next()).toEqual({ kind: 'unread', count: 0 });
    const before = hub.openStreams;
    const pending = tab.stream.next();
    tab.close();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(hub.openStreams).toBe(before - 1);
  });

  it("never pushes another user's notifications", async () => {
    const [user, other] = [randomUUID(), randomUUID()];
    const tab = openStream(user);
    expect(await tab.next()).toEqual({ kind: 'unread', count: 0 });
    await insertNotifications(database.db, [other], note('not yours'));
    await insertNotifications(database.db, [user], note('yours'));
    const seen = await tab.until(titled('yours'));
    expect(seen.filter(titled('not yours'))).toEqual([]);
    tab.close();
  });

  it('ends every open stream when shutdown begins, and a stream opened after at once', async () => {
    const own = new InboxHub(database.db, silentLogger);
    await own.start(database.listen);
    try {
      const user = randomUUID();
      const open = streamInbox(own, database.db, user, undefined);
      expect((await open.next()).value).toEqual({ kind: 'unread', count: 0 });
      const pending = open.next();
      own.endStreams();
      expect(await pending).toEqual({ done: true, value: undefined });
      const late = streamInbox(own, database.db, user, undefined);
      expect((await late.next()).value).toEqual({ kind: 'unread', count: 0 });
      expect(await late.next()).toEqual({ done: true, value: undefined });
      expect(own.openStreams).toBe(0);
    } finally {
      await own.stop();
    }
  });
});
