import { recordIdentity } from '@checkline/auth';
import type { Principal } from '@checkline/core';
import { testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notificationAccess } from '../access.ts';
import { deliveries, messages } from '../db/schema.ts';
import { verifyUnsubscribeToken } from '../preferences/unsubscribe.ts';
import { linkExternalAccount } from '../strategies/settings-store.ts';
import { versionedSchema } from '@checkline/notification-node';
import { contactStrategies } from '../testing/contact-strategies.ts';
import { recordingStrategy } from '../testing/recording-strategy.ts';
import type { DeliveryProcess } from '../testing/fixture.ts';
import {
  configureStrategy,
  createUsers,
  qualified,
  setPreference,
  startDeliveryFixture,
  useRule,
} from '../testing/fixture.ts';
import { backoffDelayMs, resolveDeliverySettings } from './settings.ts';

const { email, github, sms, chat, pager, pagerNumbers } = contactStrategies({
  emailLayout: versionedSchema({ version: 1, schema: z.object({ color: z.string() }) }),
});
const flaky = recordingStrategy({ id: 'flaky' }, () =>
  Promise.resolve({ success: false, error: 'provider down' }),
);
const rejecting = recordingStrategy({ id: 'rejecting' }, () =>
  Promise.resolve({ success: false, error: 'address rejected', permanent: true }),
);
const throttled = recordingStrategy({ id: 'throttled' }, () =>
  Promise.resolve({ success: false, error: 'HTTP 429', retryAfterMs: 90_000 }),
);
const hanging = recordingStrategy({ id: 'hanging' }, () => new Promise(() => {}));
const throwing = recordingStrategy({ id: 'throwing' }, () => {
  throw new Error('socket closed');
});
/** Reaches the user's own target, else the administrator's; signs with the user's token. */
const personal = recordingStrategy({
  id: 'personal',
  config: versionedSchema({ version: 1, schema: z.object({ fallback: z.string().optional() }) }),
  userConfig: versionedSchema({
    version: 1,
    schema: z.object({ target: z.string(), token: z.string() }),
  }),
  contactResolution: {
    type: 'custom',
    resolve: ({ userConfig, strategyConfig }) =>
      Promise.resolve(
        (userConfig as { target?: string } | undefined)?.target ??
          (strategyConfig as { fallback?: string }).fallback,
      ),
  },
});
const all = [
  email,
  github,
  sms,
  chat,
  pager,
  flaky,
  rejecting,
  throttled,
  hanging,
  throwing,
  personal,
];

let database: DatabaseHandle;
let server: DeliveryProcess;
const sender: Principal = testPrincipal([
  notificationAccess.send,
  notificationAccess.sendTransactional,
]);
const auditor: Principal = testPrincipal([notificationAccess.manageStrategies]);
const notification = { title: 'Disk almost full', type: 'healthcheck.status_changed' } as const;

const send = (input: Parameters<ReturnType<DeliveryProcess['notification']>['sendExternal']>[0]) =>
  server.notification(sender).sendExternal(input);
const deliveryRows = (messageId: string) =>
  database.db.select().from(deliveries).where(eq(deliveries.messageId, messageId));
const contactsOf = (recorder: { sent: { contact: string }[] }) =>
  recorder.sent.map((context) => context.contact);

let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ database, server, close } = await startDeliveryFixture(
    all.map((recorder) => recorder.strategy),
    {
      delivery: { maxAttempts: 3, retryDelaysMs: [5, 10, 20], sendTimeoutMs: 300 },
      settingsOf: (id) =>
        id === 'email'
          ? { layoutConfig: { color: '#123456' } }
          : id === 'personal'
            ? { config: { fallback: 'admin-target' } }
            : {},
    },
  ));
});

afterAll(() => close?.());

describe('delivery queue', () => {
  describe('works', () => {
    it('reaches each user through each of the five contact resolutions, with the seed send context', async () => {
      const [ada] = await createUsers(
        database.db,
        ['ada@example.com'],
        ['email', 'github-mail', 'sms', 'chat', 'pager'].map(useRule),
      );
      await recordIdentity(database.db, {
        userId: ada!,
        provider: 'github',
        subject: '1815',
        email: 'ada@github.example',
      });
      await setPreference(database.db, ada!, 'sms', { config: { phone: '+15550100' } });
      await linkExternalAccount(database.db, {
        userId: ada!,
        strategyId: qualified('chat'),
        externalId: 'U-ADA',
      });
      pagerNumbers.set(ada!, 'pager-7');

      const answer = await send({
        userIds: [ada!],
        notification: {
          ...notification,
          description: 'Only **5%** left',
          importance: 'critical',
          action: { label: 'Open', url: '/systems/1' },
        },
      });
      expect(answer.deliveries.map((delivery) => [delivery.strategyId, delivery.status])).toEqual(
        ['email', 'github-mail', 'sms', 'chat', 'pager'].map((id) => [qualified(id), 'pending']),
      );
      await server.worker().drain();

      expect(contactsOf(email)).toEqual(['ada@example.com']);
      expect(contactsOf(github)).toEqual(['ada@github.example']);
      expect(contactsOf(sms)).toEqual(['+15550100']);
      expect(contactsOf(chat)).toEqual(['U-ADA']);
      expect(contactsOf(pager)).toEqual(['pager-7']);
      const [emailRow] = (await deliveryRows(answer.notificationId)).filter(
        (row) => row.strategyId === qualified('email'),
      );
      expect(email.sent[0]).toEqual({
        contact: 'ada@example.com',
        notification: {
          title: 'Disk almost full',
          body: 'Only **5%** left',
          importance: 'critical',
          action: { label: 'Open', url: 'http://localhost:3000/systems/1' },
          type: 'healthcheck.status_changed',
        },
        delivery: {
          id: emailRow!.id,
          userId: ada!,
          strategyId: qualified('email'),
          createdAt: expect.any(Date) as Date,
          transactional: false,
        },
        strategyConfig: {},
        layoutConfig: { color: '#123456' },
        unsubscribeUrl: expect.stringMatching(
          /^http:\/\/localhost:3000\/api\/notification\/unsubscribe\/[\w-]+\.[\w-]+$/,
        ) as string,
      });
      const token = email.sent[0]!.unsubscribeUrl!.split('/').at(-1)!;
      expect(verifyUnsubscribeToken(server.state.keyring, token)).toEqual({
        userId: ada!,
        strategyId: qualified('email'),
      });
      expect(chat.sent[0]).toMatchObject({ externalId: 'U-ADA', accessToken: undefined });
      const rows = await deliveryRows(answer.notificationId);
      expect(rows.map((row) => row.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
      expect(rows.every((row) => row.attempts === 1 && row.attemptLog[0]?.outcome === 'sent')).toBe(
        true,
      );
    });

    it('skips a user without a contact with the reason, and still reaches the others', async () => {
      const [bob, cy] = await createUsers(
        database.db,
        ['bob@example.com', 'cy@example.com'],
        ['github-mail', 'sms', 'chat', 'pager'].map(useRule),
      );
      await setPreference(database.db, cy!, 'sms', { config: { phone: '+15550111' } });
      const reasons: Record<string, string> = {
        'github-mail': 'No contact: no github identity with an e-mail',
        sms: 'No contact: no user-config field phone',
        chat: 'No contact: no linked account',
        pager: 'No contact: the strategy found none',
      };
      for (const [id, reason] of Object.entries(reasons)) {
        const { deliveries: answered } = await send({
          userIds: [bob!],
          strategyId: qualified(id),
          notification: { ...notification },
        });
        expect(answered).toEqual([
          expect.objectContaining({ userId: bob, status: 'skipped', skipReason: reason }),
        ]);
      }
      const before = contactsOf(sms).length;
      const { deliveries: both } = await send({
        userIds: [bob!, cy!],
        strategyId: qualified('sms'),
        notification,
      });
      expect(both.map((delivery) => delivery.status)).toEqual(['skipped', 'pending']);
      await server.worker().drain();
      expect(contactsOf(sms).slice(before)).toEqual(['+15550111']);
    });

    it('without strategyId writes no row for a channel the user never set up, a skipped one for one set up without its contact', async () => {
      const [gil, hal] = await createUsers(
        database.db,
        ['gil@example.com', 'hana@example.com'],
        ['email', 'sms', 'chat'].map(useRule),
      );
      // Hana turned chat on but never linked an account: worth a line in the log.
      await setPreference(database.db, hal!, 'chat', { enabled: true });
      const { deliveries: answered } = await send({ userIds: [gil!, hal!], notification });
      const rows = answered.map((row) => [row.userId, row.strategyId, row.status, row.skipReason]);
      expect(rows).toEqual(
        expect.arrayContaining([
          [gil, qualified('email'), 'pending', null],
          [hal, qualified('email'), 'pending', null],
          [hal, qualified('chat'), 'skipped', 'No contact: no linked account'],
        ]),
      );
      expect(rows.filter(([, , status]) => status === 'skipped')).toHaveLength(1);
      await server.worker().drain();
    });

    it('without strategyId uses each channel the user may use and has on; with one, says why not', async () => {
      const [dee] = await createUsers(
        database.db,
        ['dee@example.com'],
        ['email', 'sms'].map(useRule),
      );
      await setPreference(database.db, dee!, 'sms', { enabled: false, config: { phone: '+1555' } });

      const everyChannel = await send({ userIds: [dee!], notification });
      expect(everyChannel.deliveries.map((delivery) => delivery.strategyId)).toEqual([
        qualified('email'),
      ]);

      const named = async (id: string) =>
        (await send({ userIds: [dee!], strategyId: qualified(id), notification })).deliveries;
      expect(await named('sms')).toEqual([
        expect.objectContaining({ status: 'skipped', skipReason: 'Channel disabled by the user' }),
      ]);
      expect(await named('pager')).toEqual([
        expect.objectContaining({
          status: 'skipped',
          skipReason: `Missing access: ${useRule('pager')}`,
        }),
      ]);
      await configureStrategy(database.db, 'email', { enabled: false });
      try {
        expect(await named('email')).toEqual([
          expect.objectContaining({
            status: 'skipped',
            skipReason: 'Channel disabled by an administrator',
          }),
        ]);
        expect((await send({ userIds: [dee!], notification })).deliveries).toEqual([]);
      } finally {
        await configureStrategy(database.db, 'email', { layoutConfig: { color: '#123456' } });
      }
      await server.worker().drain();
    });

    it('sends a transactional message through a channel the user switched off, never past its administrator', async () => {
      const [eve] = await createUsers(database.db, ['eve@example.com'], [useRule('email')]);
      await setPreference(database.db, eve!, 'email', { enabled: false });
      const transactional = {
        userId: eve!,
        strategyId: qualified('email'),
        message: { title: 'Reset your password', type: 'auth.password_reset' },
      };
      const answer = await server.notification(sender).sendTransactional(transactional);
      expect(answer.deliveries).toEqual([
        expect.objectContaining({ status: 'pending', transactional: true }),
      ]);
      await server.worker().drain();
      expect(email.sent.at(-1)).toMatchObject({
        contact: 'eve@example.com',
        notification: { title: 'Reset your password' },
      });
      // Account mail carries no unsubscribe link.
      expect(email.sent.at(-1)!.unsubscribeUrl).toBeUndefined();

      await configureStrategy(database.db, 'email', { enabled: false });
      try {
        const refused = await server.notification(sender).sendTransactional(transactional);
        expect(refused.deliveries).toEqual([
          expect.objectContaining({
            status: 'skipped',
            skipReason: 'Channel disabled by an administrator',
          }),
        ]);
      } finally {
        await configureStrategy(database.db, 'email', { layoutConfig: { color: '#123456' } });
      }
    });

    it('retries a failing send with backoff, then fails it keeping the error and every attempt', async () => {
      const [fay] = await createUsers(database.db, ['fay@example.com'], [useRule('flaky')]);
      const answer = await send({ userIds: [fay!], strategyId: qualified('flaky'), notification });
      await server.worker().drain();
      const [row] = await deliveryRows(answer.notificationId);
      expect(row).toMatchObject({
        status: 'failed',
        attempts: 3,
        lastError: 'provider down',
        claimToken: null,
      });
      expect(row!.attemptLog.map((attempt) => [attempt.outcome, attempt.error])).toEqual([
        ['retry', 'provider down'],
        ['retry', 'provider down'],
        ['failed', 'provider down'],
      ]);
      const times = row!.attemptLog.map((attempt) => Date.parse(attempt.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(flaky.sent).toHaveLength(3);
    });

    it('waits at least as long as the service asked (Retry-After) before the next attempt', async () => {
      const [tia] = await createUsers(database.db, ['tia@example.com'], [useRule('throttled')]);
      const before = Date.now();
      const answer = await send({
        userIds: [tia!],
        strategyId: qualified('throttled'),
        notification,
      });
      await server.worker().tick();
      await server.worker().idle();
      const [row] = await deliveryRows(answer.notificationId);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 429' });
      expect(row!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 90_000);
      expect(throttled.sent).toHaveLength(1);
      // Out of the queue, so the other tests' drains do not wait for it.
      await database.db.delete(deliveries).where(eq(deliveries.id, row!.id));
    });

    it('fails a permanent error at once, and counts a throw or a timeout as a failed attempt', async () => {
      const [gus] = await createUsers(
        database.db,
        ['gus@example.com'],
        ['rejecting', 'throwing', 'hanging'].map(useRule),
      );
      const rejected = await send({
        userIds: [gus!],
        strategyId: qualified('rejecting'),
        notification,
      });
      const thrown = await send({
        userIds: [gus!],
        strategyId: qualified('throwing'),
        notification,
      });
      const hung = await send({ userIds: [gus!], strategyId: qualified('hanging'), notification });
      await server.worker().drain();
      const [permanent] = await deliveryRows(rejected.notificationId);
      expect(permanent).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastError: 'address rejected',
      });
      const [threw] = await deliveryRows(thrown.notificationId);
      expect(threw).toMatchObject({ status: 'failed', attempts: 3, lastError: 'socket closed' });
      const [timedOut] = await deliveryRows(hung.notificationId);
      expect(timedOut).toMatchObject({
        status: 'failed',
        attempts: 3,
        lastError: 'send timed out after 300 ms',
      });
    });

    it('re-reads settings at send time: a channel switched off after queueing is skipped', async () => {
      const [hal] = await createUsers(database.db, ['hal@example.com'], [useRule('email')]);
      const answer = await send({ userIds: [hal!], strategyId: qualified('email'), notification });
      expect(answer.deliveries[0]!.status).toBe('pending');
      await setPreference(database.db, hal!, 'email', { enabled: false });
      await server.worker().drain();
      const [row] = await deliveryRows(answer.notificationId);
      expect(row).toMatchObject({
        status: 'skipped',
        skipReason: 'Channel disabled by the user',
        attempts: 0,
      });
      expect(row!.attemptLog.map((attempt) => attempt.outcome)).toEqual(['skipped']);
    });

    it('answers a repeated call with an idempotency key with the first call, creating nothing', async () => {
      const [ivy] = await createUsers(database.db, ['ivy@example.com'], [useRule('email')]);
      const keyed = { userIds: [ivy!], notification, idempotencyKey: 'alert-42' };
      const first = await send(keyed);
      const again = await send(keyed);
      expect(again).toEqual(first);
      const stored = await database.db
        .select()
        .from(messages)
        .where(eq(messages.idempotencyKey, 'alert-42'));
      expect(stored).toHaveLength(1);
      // The key belongs to its caller: another one with the same key sends its own.
      const other = testPrincipal([notificationAccess.send], {
        id: '00000000-0000-4000-8000-000000000002',
      });
      const theirs = await server.notification(other).sendExternal(keyed);
      expect(theirs.notificationId).not.toBe(first.notificationId);
      // Two calls with a new key at once: one creates, the other answers what it created.
      const racing = { ...keyed, idempotencyKey: 'alert-43' };
      const [left, right] = await Promise.all([send(racing), send(racing)]);
      expect(right.notificationId).toBe(left.notificationId);
      expect(right.deliveries.map((row) => row.id)).toEqual(left.deliveries.map((row) => row.id));
      await server.worker().drain();
    });

    it('lists the delivery log newest first, a page at a time, filtered', async () => {
      const [jo] = await createUsers(database.db, ['jo@example.com'], [useRule('email')]);
      const sent = [];
      for (let index = 0; index < 5; index += 1) {
        const answer = await send({ userIds: [jo!], strategyId: qualified('email'), notification });
        // Two sends may share a clock tick (PGlite's clock counts milliseconds): set them apart.
        await database.db
          .update(deliveries)
          .set({ createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, index)) })
          .where(eq(deliveries.id, answer.deliveries[0]!.id));
        sent.push(answer);
      }
      const log = server.notification(auditor);
      const ids: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page += 1) {
        const answer = await log.getDeliveries({
          userId: jo!,
          limit: 2,
          ...(cursor && { cursor }),
        });
        ids.push(...answer.deliveries.map((delivery) => delivery.id));
        if (answer.nextCursor === null) break;
        cursor = answer.nextCursor;
      }
      expect(ids).toEqual(sent.map((answer) => answer.deliveries[0]!.id).reverse());

      const third = sent[2]!;
      const byNotification = await log.getDeliveries({ notificationId: third.notificationId });
      expect(byNotification.deliveries.map((delivery) => delivery.id)).toEqual([
        third.deliveries[0]!.id,
      ]);
      await server.worker().drain();
      const sentOnes = await log.getDeliveries({
        userId: jo!,
        status: 'sent',
        strategyId: qualified('email'),
      });
      expect(sentOnes.deliveries).toHaveLength(5);
      const none = await log.getDeliveries({ userId: jo!, status: 'failed' });
      expect(none.deliveries).toEqual([]);
    });

    it('shows in each log row the title, the event type and the user as a person reads them, never the contact', async () => {
      const [kit] = await createUsers(database.db, ['kit@example.com'], [useRule('sms')]);
      await database.db.execute(sql`update auth.users set name = 'Kit Marlowe' where id = ${kit!}`);
      await setPreference(database.db, kit!, 'sms', { config: { phone: '+15550199' } });
      const answer = await send({
        userIds: [kit!],
        strategyId: qualified('sms'),
        notification: { title: 'Checkout is down', type: 'healthcheck.status_changed' },
      });
      const { deliveries: rows } = await server
        .notification(auditor)
        .getDeliveries({ notificationId: answer.notificationId });
      expect(rows).toEqual([
        expect.objectContaining({
          title: 'Checkout is down',
          type: 'healthcheck.status_changed',
          recipient: 'Kit Marlowe <kit@example.com>',
        }),
      ]);
      expect(JSON.stringify(rows)).not.toContain('+15550199');
      await server.worker().drain();
    });

    it("hands send the user's own settings, and a custom resolver the administrator's config", async () => {
      const [own, none] = await createUsers(
        database.db,
        ['own@example.com', 'none@example.com'],
        [useRule('personal')],
      );
      await setPreference(database.db, own!, 'personal', {
        config: { target: 'own-target', token: 'own-token' },
      });
      const answer = await send({
        userIds: [own!, none!],
        strategyId: qualified('personal'),
        notification,
      });
      await server.worker().drain();
      const byUser = new Map(personal.sent.map((context) => [context.delivery.userId, context]));
      expect(byUser.get(own!)).toMatchObject({
        contact: 'own-target',
        userConfig: { target: 'own-target', token: 'own-token' },
        strategyConfig: { fallback: 'admin-target' },
      });
      expect(byUser.get(none!)).toMatchObject({ contact: 'admin-target' });
      expect(byUser.get(none!)).not.toHaveProperty('userConfig');
      const rows = await deliveryRows(answer.notificationId);
      expect(rows.map((row) => row.status)).toEqual(['sent', 'sent']);
    });
  });

  describe('rejects bad input', () => {
    it('refuses an unknown strategy, a bad type and too many users', async () => {
      const [kim] = await createUsers(database.db, ['kim@example.com'], []);
      await expect(
        send({ userIds: [kim!], strategyId: qualified('nope'), notification }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        send({ userIds: [kim!], notification: { ...notification, type: 'NoDot' } }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      const many = Array.from({ length: 1_001 }, () => crypto.randomUUID());
      await expect(send({ userIds: many, notification })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses senders and readers without the rules', async () => {
      const [lee] = await createUsers(database.db, ['lee@example.com'], []);
      const nobody = testPrincipal([]);
      await expect(
        server.notification(nobody).sendExternal({ userIds: [lee!], notification }),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'Missing access: notification.notification.send',
      });
      await expect(
        server.notification(testPrincipal([notificationAccess.send])).sendTransactional({
          userId: lee!,
          strategyId: qualified('email'),
          message: notification,
        }),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'Missing access: notification.transactional.send',
      });
      await expect(server.notification(sender).getDeliveries({})).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    });
  });
});

describe('backoff', () => {
  it('walks the retry delays in order, repeating the last, each shortened by up to a quarter', () => {
    const settings = { retryDelaysMs: [100, 400, 1_000] };
    expect([1, 2, 3, 4, 9].map((attempt) => backoffDelayMs(attempt, settings, () => 0))).toEqual([
      100, 400, 1_000, 1_000, 1_000,
    ]);
    expect(backoffDelayMs(2, settings, () => 0.5)).toBe(350);
    expect(backoffDelayMs(2, settings, () => 0.999)).toBe(300);
  });

  it('spans hours by default, so a receiver down for a while still gets its message', () => {
    const { retryDelaysMs, maxAttempts } = resolveDeliverySettings();
    expect(retryDelaysMs).toEqual([30_000, 120_000, 600_000, 3_600_000, 21_600_000]);
    expect(maxAttempts).toBe(retryDelaysMs.length + 1);
  });

  it('refuses an empty or non-positive retry schedule', () => {
    expect(() => resolveDeliverySettings({ retryDelaysMs: [] })).toThrow(/retryDelaysMs/);
    expect(() => resolveDeliverySettings({ retryDelaysMs: [10, 0] })).toThrow(/retryDelaysMs/);
  });
});
