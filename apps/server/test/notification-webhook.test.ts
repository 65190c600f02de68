import type { AuthContract } from '@checkline/auth/contract';
import { createEgress } from '@checkline/net';
import type { NotificationContract } from '@checkline/notification/contract';
import type { LoopbackServer } from '@checkline/notification-node/testing';
import { startLoopbackServer } from '@checkline/notification-node/testing';
import {
  createWebhookChannelPlugin,
  verifyWebhookSignature,
} from '@checkline/notification-webhook';
import type { ContractRouterClient } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { enableWebhook } from './support/alert-channels.ts';
import { contractClient } from './support/contract-client.ts';
import { settledDeliveries } from './support/settled-deliveries.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 11 item 4 over HTTP: the webhook channel mounted in the whole server (with an egress
 * guard allowed to reach the loopback receiver, as WEBHOOK_ALLOW_PRIVATE=true would), configured
 * by an administrator and a user through the API, sent to by an application's sendExternal and
 * delivered by the server's own worker. A second server with the default plugins shows the
 * default guard refusing private destinations.
 */
type Contracts = { auth: AuthContract; notification: NotificationContract };
type Client = ContractRouterClient<Contracts>;

const WEBHOOK = 'notification-webhook.webhook';
const ADMIN_SECRET = 'admin-signing-secret-server-e2e';
const USER_SECRET = 'user-signing-secret-server-e2e';
const PASSWORD = 'a sound enough password';

let server: TestServer;
let receiver: LoopbackServer;
let admin: Client;
let sender: Client;
let usersRoleId: string;
let names = 0;
const unique = (prefix: string) => `${prefix}-${++names}`;
const hits = new Map<string, number>();

const clientOf = (target: () => TestServer, headers: Record<string, string>) =>
  contractClient<Contracts>(target, headers);

async function sessionOf(target: TestServer, email: string, password: string) {
  return clientOf(() => target, await target.sessionOf(email, password));
}

async function newUser(): Promise<{ id: string; email: string }> {
  const email = `${unique('person')}@example.com`;
  const user = await admin.auth.createUser({ email, password: PASSWORD, roleIds: [usersRoleId] });
  return { id: user.id, email };
}

const settled = (notificationId: string) => settledDeliveries(admin.notification, notificationId);

const notification = {
  title: 'Checkout is down',
  description: 'Since **12:00**',
  importance: 'critical' as const,
  type: 'healthcheck.status_changed',
  action: { label: 'Open', url: '/systems/7' },
};

beforeAll(async () => {
  receiver = await startLoopbackServer((request, response) => {
    const count = (hits.get(request.url) ?? 0) + 1;
    hits.set(request.url, count);
    const failFirst = request.url === '/flaky' && count === 1;
    response.writeHead(failFirst ? 500 : 200).end(failFirst ? 'try again' : 'ok');
  });
  server = await createTestServer({
    extraPlugins: [createWebhookChannelPlugin({ egress: createEgress({ allowPrivate: true }) })],
    notification: { delivery: { maxAttempts: 3, retryDelaysMs: [5, 10, 20] } },
  });
  const { cookie } = await server.adminSession();
  admin = clientOf(() => server, { cookie, origin: testEnv.BASE_URL });
  const role = await admin.auth.createRole({
    name: 'webhook-users',
    accessRules: ['notification-webhook.strategy.webhook.use'],
  });
  usersRoleId = role.id;
  const senderRole = await admin.auth.createRole({
    name: 'sender',
    accessRules: ['notification.notification.send'],
  });
  const { application, secret } = await admin.auth.createApplication({ name: 'monitor' });
  await admin.auth.updateApplication({ id: application.id, roleIds: [senderRole.id] });
  sender = clientOf(() => server, { authorization: `Bearer ${secret}` });
  await enableWebhook(admin, `${receiver.url}/shared`, ADMIN_SECRET);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe('webhook channel in the server', () => {
  it('is listed with its settings schemas; its signing secret is never answered', async () => {
    const { strategies } = await admin.notification.getStrategies({});
    const webhook = strategies.find((strategy) => strategy.strategyId === WEBHOOK);
    expect(webhook).toMatchObject({
      enabled: true,
      configured: true,
      config: { url: `${receiver.url}/shared` },
      configSecrets: { signingSecret: true },
      contactResolution: 'custom',
    });
    expect(JSON.stringify(webhook!.schemas.userConfig)).toContain('"x-secret":true');
    expect(JSON.stringify(strategies)).not.toContain(ADMIN_SECRET);
  });

  it("delivers sendExternal as a signed POST to the administrator's URL, and to a user's own", async () => {
    const shared = await newUser();
    const own = await newUser();
    const ownSession = await sessionOf(server, own.email, PASSWORD);
    const saved = await ownSession.notification.updateMyChannel({
      strategyId: WEBHOOK,
      config: { url: `${receiver.url}/own`, signingSecret: USER_SECRET },
    });
    expect(JSON.stringify(saved)).not.toContain(USER_SECRET);

    const answer = await sender.notification.sendExternal({
      userIds: [shared.id, own.id],
      strategyId: WEBHOOK,
      notification,
    });
    const deliveries = await settled(answer.notificationId);
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['sent', 'sent']);
    const byPath = (path: string) => receiver.requests.find((request) => request.url === path)!;
    for (const [path, secret, user] of [
      ['/shared', ADMIN_SECRET, shared],
      ['/own', USER_SECRET, own],
    ] as const) {
      const request = byPath(path);
      const signature = String(request.headers['x-checkline-signature']);
      expect(verifyWebhookSignature(secret, signature, request.body)).toBe(true);
      const payload = JSON.parse(request.body) as { id: string };
      const delivery = deliveries.find((entry) => entry.userId === user.id)!;
      expect(payload).toEqual({
        version: 1,
        id: delivery.id,
        type: 'healthcheck.status_changed',
        title: 'Checkout is down',
        description: 'Since **12:00**',
        text: 'Since 12:00',
        importance: 'critical',
        action: { label: 'Open', url: `${testEnv.FRONTEND_URL}/systems/7` },
        timestamp: expect.any(String) as string,
        facts: null,
      });
    }
    expect(
      verifyWebhookSignature(
        USER_SECRET,
        String(byPath('/shared').headers['x-checkline-signature']),
        byPath('/shared').body,
      ),
    ).toBe(false);
  });

  it('retries a receiver answering 500, then records it sent', async () => {
    const user = await newUser();
    const session = await sessionOf(server, user.email, PASSWORD);
    await session.notification.updateMyChannel({
      strategyId: WEBHOOK,
      config: { url: `${receiver.url}/flaky`, signingSecret: USER_SECRET },
    });
    const answer = await sender.notification.sendExternal({
      userIds: [user.id],
      strategyId: WEBHOOK,
      notification,
    });
    const [delivery] = await settled(answer.notificationId);
    expect(delivery).toMatchObject({ status: 'sent', attempts: 2 });
    expect(delivery!.attemptLog.map((attempt) => attempt.outcome)).toEqual(['retry', 'sent']);
    expect(delivery!.attemptLog[0]!.error).toBe('Webhook answered HTTP 500: try again');
  });

  it('never writes a signing secret into the log', () => {
    expect(server.logLines.length).toBeGreaterThan(0);
    const leaking = server.logLines.filter(
      (line) => line.includes(ADMIN_SECRET) || line.includes(USER_SECRET),
    );
    expect(leaking).toEqual([]);
  });
});

describe('webhook channel of the default plugins (WEBHOOK_ALLOW_PRIVATE unset)', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await createTestServer();
  });
  afterAll(() => strict?.close());

  it('is mounted, and refuses to save a private or metadata URL, naming WEBHOOK_ALLOW_PRIVATE', async () => {
    expect(createPlugins(testEnv).map((plugin) => plugin.id)).toContain('notification-webhook');
    const { cookie } = await strict.adminSession();
    const strictAdmin = clientOf(() => strict, { cookie, origin: testEnv.BASE_URL });
    const before = receiver.connections;
    for (const [url, message] of [
      [
        `${receiver.url}/hook`,
        'Target refused: 127.0.0.1 is a loopback address (WEBHOOK_ALLOW_PRIVATE can allow it)',
      ],
      [
        'http://10.0.0.1/hook',
        'Target refused: 10.0.0.1 is a private address (WEBHOOK_ALLOW_PRIVATE can allow it)',
      ],
      ['http://169.254.169.254/', 'Target refused: 169.254.169.254 is a cloud metadata address'],
    ]) {
      await expect(
        strictAdmin.notification.updateStrategy({
          strategyId: WEBHOOK,
          config: { url, signingSecret: ADMIN_SECRET },
        }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: { issues: [{ path: 'config.url', message }] },
      });
    }
    expect(receiver.connections).toBe(before);
  });
});
