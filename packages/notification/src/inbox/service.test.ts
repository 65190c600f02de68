import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { testPageScope } from '@checkline/core/testing';
import { describe, expect, it } from 'vitest';
import { inbox } from '../db/schema.ts';
import { inboxDatabaseForTests, note } from '../testing/fixture.ts';
import {
  countUnread,
  deleteNotification,
  insertNotifications,
  listNotifications,
  markAsRead,
  purgeNotificationsBefore,
} from './service.ts';

const database = inboxDatabaseForTests();

const page = (userId: string, extra: { unreadOnly?: boolean; cursor?: string; limit?: number }) =>
  listNotifications(
    database.db,
    userId,
    { unreadOnly: false, limit: 100, ...extra },
    testPageScope(),
  );

describe('works', () => {
  it('writes one row per distinct user with every field of the notification', async () => {
    const [ada, bob] = [randomUUID(), randomUUID()];
    const written = await insertNotifications(database.db, [ada, bob, ada], {
      title: 'Disk full',
      body: '**db-1** is at 99 %',
      importance: 'critical',
      action: { label: 'Open', url: '/systems/1' },
      type: 'healthcheck.status_changed',
    });
    expect(written).toBe(2);
    const { notifications } = await page(ada, {});
    expect(notifications).toEqual([
      expect.objectContaining({
        title: 'Disk full',
        body: '**db-1** is at 99 %',
        importance: 'critical',
        action: { label: 'Open', url: '/systems/1' },
        type: 'healthcheck.status_changed',
        read: false,
        readAt: null,
      }),
    ]);
    expect(await countUnread(database.db, bob)).toBe(1);
  });

  it('writes 3 000 users in one statement', async () => {
    const users = Array.from({ length: 3_000 }, () => randomUUID());
    expect(await insertNotifications(database.db, users, note('Everyone'))).toBe(3_000);
    expect(await database.db.$count(inbox)).toBe(3_000);
  });

  it('pages newest first without skipping or repeating a row', async () => {
    const user = randomUUID();
    for (const [second, title] of ['one', 'two', 'three', 'four', 'five'].entries()) {
      await insertNotifications(database.db, [user], note(title));
      // Two inserts may share a clock tick (PGlite's clock counts milliseconds): set them apart.
      await database.db
        .update(inbox)
        .set({ createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, second)) })
        .where(sql`${inbox.userId} = ${user} and ${inbox.title} = ${title}`);
    }
    const first = await page(user, { limit: 2 });
    const second = await page(user, { limit: 2, cursor: first.nextCursor! });
    const third = await page(user, { limit: 2, cursor: second.nextCursor! });
    expect([first, second, third].flatMap((p) => p.notifications.map((n) => n.title))).toEqual([
      'five',
      'four',
      'three',
      'two',
      'one',
    ]);
    expect(third.nextCursor).toBeNull();
  });

  it('lists only unread notifications when asked', async () => {
    const user = randomUUID();
    await insertNotifications(database.db, [user], note('old'));
    // Two inserts may share a clock tick (PGlite's clock counts milliseconds): set them apart.
    await database.db
      .update(inbox)
      .set({ createdAt: sql`now() - interval '1 minute'` })
      .where(sql`${inbox.userId} = ${user}`);
    await insertNotifications(database.db, [user], note('new'));
    const [newest] = (await page(user, {})).notifications;
    expect(newest?.title).toBe('new');
    await markAsRead(database.db, user, { ids: [newest!.id] });
    const unread = await page(user, { unreadOnly: true });
    expect(unread.notifications.map((n) => n.title)).toEqual(['old']);
    expect((await page(user, {})).notifications.map((n) => n.read)).toEqual([true, false]);
  });

  it('marks given ids as read and answers the count changed and the unread left', async () => {
    const user = randomUUID();
    for (const title of ['a', 'b', 'c'])
      await insertNotifications(database.db, [user], note(title));
    const ids = (await page(user, {})).notifications.map((n) => n.id);
    expect(await markAsRead(database.db, user, { ids: [ids[0]!, ids[1]!] })).toEqual({
      updated: 2,
      unreadCount: 1,
    });
    // Already read: nothing changes again.
    expect(await markAsRead(database.db, user, { ids: [ids[0]!] })).toEqual({
      updated: 0,
      unreadCount: 1,
    });
  });

  it('marks all as read', async () => {
    const user = randomUUID();
    for (const title of ['a', 'b']) await insertNotifications(database.db, [user], note(title));
    expect(await markAsRead(database.db, user, { all: true })).toEqual({
      updated: 2,
      unreadCount: 0,
    });
    const [row] = (await page(user, {})).notifications;
    expect(row!.readAt).not.toBeNull();
  });

  it('deletes a notification', async () => {
    const user = randomUUID();
    await insertNotifications(database.db, [user], note('bye'));
    const [row] = (await page(user, {})).notifications;
    expect(await deleteNotification(database.db, user, row!.id)).toEqual({
      id: row!.id,
      deleted: true,
    });
    expect((await page(user, {})).notifications).toEqual([]);
  });

  it('purges notifications older than the cutoff in chunks, and keeps newer ones', async () => {
    const user = randomUUID();
    await insertNotifications(database.db, [user, randomUUID(), randomUUID()], note('old'));
    await database.db
      .update(inbox)
      .set({ createdAt: sql`now() - interval '100 days'` })
      .where(eq(inbox.title, 'old'));
    await insertNotifications(database.db, [user], note('recent'));
    const cutoff = new Date(Date.now() - 90 * 86_400_000);
    expect(await purgeNotificationsBefore(database.db, cutoff, 2)).toBe(3);
    expect((await page(user, {})).notifications.map((n) => n.title)).toEqual(['recent']);
  });

  it('writes nothing when the transaction rolls back', async () => {
    const user = randomUUID();
    await expect(
      database.db.transaction(async (tx) => {
        await insertNotifications(tx, [user], note('never'));
        throw new Error('batch failed');
      }),
    ).rejects.toThrow('batch failed');
    expect(await countUnread(database.db, user)).toBe(0);
  });
});

describe('refuses the wrong caller', () => {
  it("cannot mark another user's notifications as read", async () => {
    const [owner, other] = [randomUUID(), randomUUID()];
    await insertNotifications(database.db, [owner], note('mine'));
    const [row] = (await page(owner, {})).notifications;
    expect(await markAsRead(database.db, other, { ids: [row!.id] })).toEqual({
      updated: 0,
      unreadCount: 0,
    });
    expect(await markAsRead(database.db, other, { all: true })).toEqual({
      updated: 0,
      unreadCount: 0,
    });
    expect(await countUnread(database.db, owner)).toBe(1);
  });

  it("cannot delete another user's notification: NOT_FOUND", async () => {
    const [owner, other] = [randomUUID(), randomUUID()];
    await insertNotifications(database.db, [owner], note('mine'));
    const [row] = (await page(owner, {})).notifications;
    await expect(deleteNotification(database.db, other, row!.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await countUnread(database.db, owner)).toBe(1);
  });

  it("never lists another user's notifications", async () => {
    const [owner, other] = [randomUUID(), randomUUID()];
    await insertNotifications(database.db, [owner], note('mine'));
    expect((await page(other, {})).notifications).toEqual([]);
  });
});
