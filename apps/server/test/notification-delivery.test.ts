import { recordIdentity } from '@checkline/auth';
import type { AuthContract } from '@checkline/auth/contract';
import type { NotificationContract } from '@checkline/notification/contract';
import type { Delivery } from '@checkline/notification';
import {
  contactStrategies,
  linkExternalAccount,
  recordingStrategy,
  testChannelPlugin,
  writeStrategySettings,
  writeUserChannel,
} from '@checkline/notification/testing';
import type { ContractRouterClient } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract-client.ts';
import { settledDeliveries } from './support/settled-deliveries.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 10 items 4, 6, 8 and 9 over HTTP: an application holding the send rules queues
 * notifications to users through a test channel plugin's strategies; the server's own delivery
 * worker sends them (woken by the commit), and the delivery log tells what happened.
 */
type Contracts = { auth: AuthContract; notification: NotificationContract };
type Client = ContractRouterClient<Contracts>;

const CHANNEL = 'test-channel';
const id = (strategy: string) => `${CHANNEL}.${strategy}`;
const useRule = (strategy: string) => `${CHANNEL}.strategy.${strategy}.use`;

const { email, github, sms, chat, pager, pagerNumbers } = contactStrategies();
const flaky = recordingStrategy({ id: 'flaky' }, () =>
  Promise.resolve({ success: false, error: 'gateway timeout' }),
);
const rejecting = recordingStrategy({ id: 'rejecting' }, () =>
  Promise.resolve({ success: false, error: 'number does not exist', permanent: true }),
);
const recorders = [email, github, sms, chat, pager, flaky, rejecting];
const contacts = (recorder: { sent: { contact: string }[] }) =>
  recorder.sent.map((context) => context.contact);

let server: TestServer;
let admin: Client;
let sender: Client;
let adminUserId: string;
let usersRoleId: string;
let names = 0;
const unique = (prefix: string) => `${prefix}-${++names}`;
const clientWith = (headers: Record<string, string>) =>
  contractClient<Contracts>(() => server, headers);
const bearer = (secret: string) => clientWith({ authorization: `Bearer ${secret}` });

async function applicationHolding(rules: string[]): Promise<string> {
  const role = await admin.auth.createRole({ name: unique('role'), accessRules: rules });
  const { application, secret } = await admin.auth.createApplication({ name: unique('app') });
  await admin.auth.updateApplication({ id: application.id, roleIds: [role.id] });
  return secret;
}

async function newUser(): Promise<{ id: string; email: string }> {
  const address = `${unique('person')}@example.com`;
  const user = await admin.auth.createUser({
    email: address,
    password: 'a sound enough password',
    roleIds: [usersRoleId],
  });
  return { id: user.id, email: address };
}

/** The deliveries of a notification once none is pending, in the reverse of the log's order. */
const settled = async (notificationId: string) =>
  (await settledDeliveries(admin.notification, notificationId)).reverse();

const notification = { title: 'Checkout is down', type: 'healthcheck.status_changed' };

beforeAll(async () => {
  server = await createTestServer({
    extraPlugins: [
      testChannelPlugin(
        CHANNEL,
        recorders.map((recorder) => recorder.strategy),
      ),
    ],
    notification: { delivery: { maxAttempts: 3, retryDelaysMs: [5, 10, 20] } },
  });
  const { cookie } = await server.adminSession();
  admin = clientWith({ cookie, origin: testEnv.BASE_URL });
  const { users } = await admin.auth.getUsers({});
  adminUserId = users.find((user) => user.email === testAdmin.email)!.id;
  const channelUsers = await admin.auth.createRole({
    name: 'channel-users',
    accessRules: ['email', 'github-mail', 'sms', 'chat', 'pager', 'flaky', 'rejecting'].map(
      useRule,
    ),
  });
  usersRoleId = channelUsers.id;
  sender = bearer(
    await applicationHolding(['notification.notification.send', 'notification.transactional.send']),
  );
  for (const { strategy } of recorders) {
    await writeStrategySettings(server.database.db, id(strategy.id));
  }
});
afterAll(() => server?.close());

describe('notification deliveries over HTTP', () => {
  describe('works', () => {
    it('reaches a user through each of the five contact resolutions', async () => {
      const user = await newUser();
      await recordIdentity(server.database.db, {
        userId: user.id,
        provider: 'github',
        subject: 'gh-1',
        email: 'octo@github.example',
      });
      await writeUserChannel(server.database.db, user.id, id('sms'), {
        config: { phone: '+15550123' },
      });
      await linkExternalAccount(server.database.db, {
        userId: user.id,
        strategyId: id('chat'),
        externalId: 'U-CHAT',
      });
      pagerNumbers.set(user.id, 'pager-42');

      const answer = await sender.notification.sendExternal({
        userIds: [user.id],
        notification: { ...notification, description: 'Since **12:00**', importance: 'critical' },
      });
      const byStrategy = Object.fromEntries(
        answer.deliveries.map((delivery) => [delivery.strategyId, delivery.status]),
      );
      expect(byStrategy).toMatchObject({
        [id('email')]: 'pending',
        [id('github-mail')]: 'pending',
        [id('sms')]: 'pending',
        [id('chat')]: 'pending',
        [id('pager')]: 'pending',
      });
      const final = await settled(answer.notificationId);
      const status = (strategy: string) =>
        final.find((delivery) => delivery.strategyId === id(strategy))?.status;
      for (const strategy of ['email', 'github-mail', 'sms', 'chat', 'pager']) {
        expect({ strategy, status: status(strategy) }).toEqual({ strategy, status: 'sent' });
      }
      expect(contacts(email)).toContain(user.email);
      expect(contacts(github)).toContain('octo@github.example');
      expect(contacts(sms)).toContain('+15550123');
      expect(contacts(chat)).toContain('U-CHAT');
      expect(contacts(pager)).toContain('pager-42');
      expect(email.sent.find((context) => context.contact === user.email)?.notification).toEqual({
        title: 'Checkout is down',
        body: 'Since **12:00**',
        importance: 'critical',
        type: 'healthcheck.status_changed',
      });
    });

    it('skips a user without a contact, with the reason', async () => {
      const user = await newUser();
      const { deliveries } = await sender.notification.sendExternal({
        userIds: [user.id],
        strategyId: id('sms'),
        notification,
      });
      expect(deliveries).toEqual([
        expect.objectContaining({
          userId: user.id,
          status: 'skipped',
          skipReason: 'No contact: no user-config field phone',
        }),
      ]);
    });

    it('skips a channel the user switched off when named, while sendTransactional still delivers to it', async () => {
      const user = await newUser();
      await writeUserChannel(server.database.db, user.id, id('email'), { enabled: false });
      const everyChannel = await sender.notification.sendExternal({
        userIds: [user.id],
        notification,
      });
      expect(everyChannel.deliveries.map((delivery) => delivery.strategyId)).not.toContain(
        id('email'),
      );
      const named = await sender.notification.sendExternal({
        userIds: [user.id],
        strategyId: id('email'),
        notification,
      });
      expect(named.deliveries).toEqual([
        expect.objectContaining({ status: 'skipped', skipReason: 'Channel disabled by the user' }),
      ]);
      const transactional = await sender.notification.sendTransactional({
        userId: user.id,
        strategyId: id('email'),
        message: { title: 'Your export is ready', type: 'catalog.export_ready' },
      });
      const [delivered] = await settled(transactional.notificationId);
      expect(delivered).toMatchObject({ status: 'sent', transactional: true });
      expect(contacts(email)).toContain(user.email);
    });

    it('retries a failing send with backoff then fails it with every attempt kept; a permanent error fails at once', async () => {
      const user = await newUser();
      pagerNumbers.set(user.id, 'unused');
      const failing = await sender.notification.sendExternal({
        userIds: [user.id],
        strategyId: id('flaky'),
        notification,
      });
      const permanent = await sender.notification.sendExternal({
        userIds: [user.id],
        strategyId: id('rejecting'),
        notification,
      });
      const [retried] = await settled(failing.notificationId);
      expect(retried).toMatchObject({
        status: 'failed',
        attempts: 3,
        lastError: 'gateway timeout',
      });
      expect(retried!.attemptLog.map((attempt) => attempt.outcome)).toEqual([
        'retry',
        'retry',
        'failed',
      ]);
      const [rejected] = await settled(permanent.notificationId);
      expect(rejected).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastError: 'number does not exist',
      });
    });

    it('answers a repeated call with the same idempotency key with the first call', async () => {
      const user = await newUser();
      const keyed = { userIds: [user.id], notification, idempotencyKey: unique('key') };
      const first = await sender.notification.sendExternal(keyed);
      const again = await sender.notification.sendExternal(keyed);
      expect(again.notificationId).toBe(first.notificationId);
      expect(again.deliveries.map((delivery) => delivery.id)).toEqual(
        first.deliveries.map((delivery) => delivery.id),
      );
      const { deliveries } = await admin.notification.getDeliveries({ userId: user.id });
      expect(deliveries).toHaveLength(first.deliveries.length);
    });

    it('creates no delivery in a keyed batch that fails', async () => {
      const user = await newUser();
      const key = await applicationHolding([
        'notification.notification.send',
        'notification.transactional.send',
      ]);
      const response = await server.keyed(
        'notification',
        {
          sendExternal: { userIds: [user.id], strategyId: id('email'), notification },
          sendTransactional: {
            userId: user.id,
            strategyId: id('no-such-channel'),
            message: notification,
          },
        },
        key,
      );
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        code: 'NOT_FOUND',
        procedure: 'sendTransactional',
      });
      const { deliveries } = await admin.notification.getDeliveries({ userId: user.id });
      expect(deliveries).toEqual([]);
    });

    it('sends the calling admin a test notification through the real queue', async () => {
      const { delivery } = await admin.notification.sendTestNotification({
        strategyId: id('email'),
      });
      expect(delivery).toMatchObject({ userId: adminUserId, strategyId: id('email') });
      const [sent] = await settled(delivery.notificationId);
      expect(sent!.status).toBe('sent');
      // Earlier tests' rejecting channel may have been reported to the admin meanwhile.
      const tests = email.sent.filter((sent) => sent.notification.type === 'notification.test');
      expect(tests.at(-1)).toMatchObject({
        contact: testAdmin.email,
        notification: { title: 'Test notification from Checkline', type: 'notification.test' },
      });
    });

    it('lists the delivery log newest first, a page at a time, with filters (REST)', async () => {
      const user = await newUser();
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1) {
        const { deliveries } = await sender.notification.sendExternal({
          userIds: [user.id],
          strategyId: id('sms'),
          notification,
        });
        ids.push(deliveries[0]!.id);
      }
      const { cookie } = await server.adminSession();
      const page = async (query: string) => {
        const response = await server.request(`/rest/notification/getDeliveries?${query}`, {
          headers: { cookie, origin: testEnv.BASE_URL },
        });
        expect(response.status).toBe(200);
        return (await response.json()) as { deliveries: Delivery[]; nextCursor: string | null };
      };
      const first = await page(`userId=${user.id}&limit=2`);
      const second = await page(`userId=${user.id}&limit=2&cursor=${first.nextCursor}`);
      expect([...first.deliveries, ...second.deliveries].map((delivery) => delivery.id)).toEqual(
        [...ids].reverse(),
      );
      expect(second.nextCursor).toBeNull();
      const skipped = await page(`userId=${user.id}&status=skipped&strategyId=${id('sms')}`);
      expect(skipped.deliveries).toHaveLength(3);
      expect((await page(`userId=${user.id}&status=sent`)).deliveries).toEqual([]);
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses applications without the rules, and keeps getUserProfiles to plugins', async () => {
      const user = await newUser();
      const nothing = bearer(await applicationHolding([]));
      await expect(
        nothing.notification.sendExternal({ userIds: [user.id], notification }),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'Missing access: notification.notification.send',
      });
      const externalOnly = bearer(await applicationHolding(['notification.notification.send']));
      await expect(
        externalOnly.notification.sendTransactional({
          userId: user.id,
          strategyId: id('email'),
          message: notification,
        }),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'Missing access: notification.transactional.send',
      });
      await expect(sender.notification.getDeliveries({})).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
      await expect(
        sender.notification.sendTestNotification({ strategyId: id('email') }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(admin.auth.getUserProfiles({ userIds: [user.id] })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    });
  });
});
