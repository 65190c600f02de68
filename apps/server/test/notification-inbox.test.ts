import { silentLogger } from '@checkline/core';
import { connectPostgres } from '@checkline/db';
import { testDatabaseKind, testDatabaseUrl } from '@checkline/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { startCheckline } from '../src/start.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

let server: TestServer;
let adminCookie: string;
let sender: string;
let ada: { id: string; cookie: string };
let bob: { id: string; cookie: string };
let names = 0;

type Body = Record<string, any>;

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Body };
}

/** POST /api/{pluginId}/ with a session cookie, as a browser on our own origin sends it. */
const withSession = async (cookie: string, pluginId: string, body: unknown) =>
  answer(
    await server.request(`/api/${pluginId}/`, {
      method: 'POST',
      headers: { cookie, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );

async function asAdmin(body: unknown): Promise<Body> {
  const { status, body: answered } = await withSession(adminCookie, 'auth', body);
  if (status !== 200) throw new Error(JSON.stringify(answered));
  return answered;
}

async function newUser() {
  const email = `inbox-${++names}@example.com`;
  const password = 'a sound enough password';
  const { createUser } = await asAdmin({ createUser: { email, password } });
  const { cookie } = await server.sessionOf(email, password);
  return { id: createUser.id as string, cookie };
}

async function newApplication(accessRules: string[]) {
  const { createRole } = await asAdmin({
    createRole: { name: `inbox-role-${++names}`, accessRules },
  });
  const { createApplication } = await asAdmin({
    createApplication: { name: `inbox-app-${++names}` },
  });
  await asAdmin({
    updateApplication: { id: createApplication.application.id, roleIds: [createRole.id] },
  });
  return createApplication.secret as string;
}

const notification = (title: string) => ({ title, type: 'test.inbox', body: `**${title}**` });

const inboxOf = async (user: { cookie: string }, input: Body = {}) =>
  (await withSession(user.cookie, 'notification', { getNotifications: input })).body
    .getNotifications as { notifications: Body[]; nextCursor: string | null };

beforeAll(async () => {
  server = await createTestServer();
  adminCookie = (await server.adminSession()).cookie;
  sender = await newApplication(['notification.notification.send', 'notification.strategy.manage']);
  ada = await newUser();
  bob = await newUser();
});
afterAll(() => server.close());

interface SseEvent {
  event: string;
  data: unknown;
}

/**
 * A server-sent-events reader over a real connection; `next` answers the next event with data
 * (keep-alive comments skipped) or throws after `timeoutMs`.
 */
async function openStream(baseUrl: string, cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/rest/notification/streamNotifications`, {
    headers: { cookie, origin: testEnv.BASE_URL, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';

  function parse(block: string): SseEvent | undefined {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    return data.length === 0 ? undefined : { event, data: JSON.parse(data.join('\n')) };
  }

  async function next(timeoutMs = 5_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const parsed = parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (parsed) return parsed;
        end = buffer.indexOf('\n\n');
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no event in time');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), left);
      });
      const read = await Promise.race([reader.read(), timeout]);
      clearTimeout(timer);
      if (read === 'timeout') throw new Error('no event in time');
      if (read.done) throw new Error('the stream ended');
      buffer += read.value.replaceAll('\r\n', '\n');
    }
  }

  /** Events up to the first notification titled `title`. */
  async function untilTitled(title: string): Promise<SseEvent[]> {
    const seen: SseEvent[] = [];
    for (;;) {
      const event = await next();
      seen.push(event);
      if ((event.data as Body).notification?.title === title) return seen;
    }
  }

  return {
    next,
    untilTitled,
    close() {
      controller.abort();
      return reader.cancel().catch(() => {});
    },
  };
}

const titlesIn = (events: SseEvent[]) =>
  events.flatMap((event) => {
    const title = (event.data as Body).notification?.title as string | undefined;
    return title === undefined ? [] : [title];
  });

describe('works', () => {
  it('an application key notifies users (keyed); each reads, marks and deletes in their own inbox', async () => {
    const sent = await server.keyed(
      'notification',
      {
        notifyUsers: {
          userIds: [ada.id, bob.id],
          notification: {
            ...notification('Deploy finished'),
            importance: 'warning',
            action: { label: 'Open', url: '/systems/1' },
          },
        },
      },
      sender,
    );
    expect(await answer(sent)).toEqual({
      status: 200,
      body: { notifyUsers: { notified: 2, unknownUserIds: [] } },
    });

    const [mine] = (await inboxOf(ada)).notifications;
    expect(mine).toMatchObject({
      title: 'Deploy finished',
      body: '**Deploy finished**',
      importance: 'warning',
      action: { label: 'Open', url: '/systems/1' },
      read: false,
    });
    const unread = await withSession(ada.cookie, 'notification', { getUnreadCount: {} });
    expect(unread.body.getUnreadCount.count).toBeGreaterThanOrEqual(1);

    const marked = await withSession(ada.cookie, 'notification', {
      markAsRead: { ids: [mine!.id] },
    });
    expect(marked.body.markAsRead).toMatchObject({ updated: 1 });
    expect((await inboxOf(ada, { unreadOnly: true })).notifications.map((n) => n.id)).not.toContain(
      mine!.id,
    );
    const deleted = await withSession(ada.cookie, 'notification', {
      deleteNotification: { id: mine!.id },
    });
    expect(deleted.body).toEqual({ deleteNotification: { id: mine!.id, deleted: true } });
    expect((await inboxOf(ada)).notifications.map((n) => n.id)).not.toContain(mine!.id);
    // Bob's copy is his own and untouched.
    expect((await inboxOf(bob)).notifications[0]).toMatchObject({
      title: 'Deploy finished',
      read: false,
    });
  });

  it('notifies through REST, and marks all as read', async () => {
    const response = await server.rest('POST', 'notification/notifyUsers', {
      token: sender,
      body: { userIds: [bob.id], notification: notification('Over REST') },
    });
    expect(await answer(response)).toEqual({
      status: 200,
      body: { notified: 1, unknownUserIds: [] },
    });
    expect((await inboxOf(bob)).notifications[0]).toMatchObject({ title: 'Over REST' });
    const marked = await withSession(bob.cookie, 'notification', { markAsRead: { all: true } });
    expect(marked.body.markAsRead).toMatchObject({ unreadCount: 0 });
    expect(marked.body.markAsRead.updated).toBeGreaterThanOrEqual(1);
  });

  it('streams the unread count, then a notification sent afterwards, over a real port', async () => {
    const listening = await server.listen();
    const user = await newUser();
    const stream = await openStream(listening.url, user.cookie);
    try {
      expect(await stream.next()).toEqual({
        event: 'message',
        data: { kind: 'unread', count: 0 },
      });
      await server.keyed(
        'notification',
        { notifyUsers: { userIds: [user.id], notification: notification('Live') } },
        sender,
      );
      const seen = await stream.untilTitled('Live');
      expect(seen.at(-1)!.data).toMatchObject({
        kind: 'notification',
        notification: { title: 'Live', read: false },
      });
      expect((await stream.next()).data).toEqual({ kind: 'unread', count: 1 });
    } finally {
      await stream.close();
      await listening.close();
    }
  });

  it('a notifyUsers inside a failing keyed batch writes nothing and pushes nothing', async () => {
    const listening = await server.listen();
    const user = await newUser();
    const stream = await openStream(listening.url, user.cookie);
    try {
      expect((await stream.next()).data).toEqual({ kind: 'unread', count: 0 });
      const failed = await answer(
        await server.keyed(
          'notification',
          {
            notifyUsers: { userIds: [user.id], notification: notification('Rolled back') },
            // Runs after notifyUsers wrote its row, and fails: no such strategy.
            updateStrategy: { strategyId: 'nowhere.nothing', enabled: true },
          },
          sender,
        ),
      );
      expect(failed.status).toBeGreaterThanOrEqual(400);
      expect(failed.body.procedure).toBe('updateStrategy');
      expect((await inboxOf(user)).notifications).toEqual([]);

      await server.keyed(
        'notification',
        { notifyUsers: { userIds: [user.id], notification: notification('Kept') } },
        sender,
      );
      const seen = await stream.untilTitled('Kept');
      expect(titlesIn(seen)).toEqual(['Kept']);
      expect((await inboxOf(user)).notifications.map((n) => n.title)).toEqual(['Kept']);
    } finally {
      await stream.close();
      await listening.close();
    }
  });
});

describe('refuses the wrong caller', () => {
  it("a user can neither read, mark nor delete another user's notification", async () => {
    await server.keyed(
      'notification',
      { notifyUsers: { userIds: [ada.id], notification: notification('For Ada only') } },
      sender,
    );
    const [adas] = (await inboxOf(ada)).notifications;
    expect((await inboxOf(bob)).notifications.map((n) => n.id)).not.toContain(adas!.id);
    const marked = await withSession(bob.cookie, 'notification', {
      markAsRead: { ids: [adas!.id] },
    });
    expect(marked.body.markAsRead).toMatchObject({ updated: 0 });
    const deleted = await withSession(bob.cookie, 'notification', {
      deleteNotification: { id: adas!.id },
    });
    expect(deleted.status).toBe(404);
    expect(deleted.body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await inboxOf(ada)).notifications[0]).toMatchObject({ id: adas!.id, read: false });
  });

  it('an application key cannot call the inbox procedures of users', async () => {
    for (const body of [
      { getNotifications: {} },
      { getUnreadCount: {} },
      { markAsRead: { all: true } },
      { deleteNotification: { id: '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11' } },
    ]) {
      const refused = await answer(await server.keyed('notification', body, sender));
      expect(refused.status).toBe(403);
    }
    const stream = await server.rest('GET', 'notification/streamNotifications', { token: sender });
    expect(stream.status).toBe(403);
  });

  it('a user without notification.send cannot notify', async () => {
    const refused = await withSession(ada.cookie, 'notification', {
      notifyUsers: { userIds: [bob.id], notification: notification('Spoof') },
    });
    expect(refused.status).toBe(403);
  });
});

describe('rejects bad input', () => {
  it('a keyed call of the stream is BAD_REQUEST naming where to call it', async () => {
    const refused = await withSession(ada.cookie, 'notification', { streamNotifications: {} });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'BAD_REQUEST',
      procedure: 'streamNotifications',
      message: expect.stringContaining('GET /rest/notification/streamNotifications'),
    });
  });

  it('an action URL that is neither a path nor http(s) is BAD_REQUEST', async () => {
    const refused = await server.keyed(
      'notification',
      {
        notifyUsers: {
          userIds: [ada.id],
          notification: { ...notification('Bad'), action: { label: 'x', url: 'javascript:1' } },
        },
      },
      sender,
    );
    expect(refused.status).toBe(400);
  });
});

// PGlite is one process's database: two servers share a database only on PostgreSQL.
const onPostgres = testDatabaseKind() === 'postgres';
if (onPostgres)
  describe('across server processes', () => {
    it('a stream on server A hears a notification sent through server B on the same database', async () => {
      const url = testDatabaseUrl(server.database)!;
      const databaseB = connectPostgres(url, { poolSize: 3 });
      const serverB = await startCheckline({
        database: databaseB,
        plugins: createPlugins(testEnv),
        logger: silentLogger,
      });
      const listening = await server.listen();
      const user = await newUser();
      const stream = await openStream(listening.url, user.cookie);
      try {
        expect((await stream.next()).data).toEqual({ kind: 'unread', count: 0 });
        const sent = await serverB.app.request('/api/notification/', {
          method: 'POST',
          headers: { authorization: `Bearer ${sender}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            notifyUsers: { userIds: [user.id], notification: notification('From B') },
          }),
        });
        expect(sent.status).toBe(200);
        await stream.untilTitled('From B');
        expect((await stream.next()).data).toEqual({ kind: 'unread', count: 1 });
      } finally {
        await stream.close();
        await listening.close();
        await serverB.stop();
        await databaseB.close();
      }
    });
  });

// Last in the file: once shutdown begins, this server's streams end for good.
describe('on shutdown', () => {
  it('open streams end when shutdown begins, so the HTTP server can drain', async () => {
    const listening = await server.listen();
    const user = await newUser();
    const stream = await openStream(listening.url, user.cookie);
    try {
      expect((await stream.next()).data).toEqual({ kind: 'unread', count: 0 });
      server.checkline.drain();
      await expect(stream.next()).rejects.toThrow('the stream ended');
    } finally {
      await stream.close();
      await listening.close();
    }
  });
});
