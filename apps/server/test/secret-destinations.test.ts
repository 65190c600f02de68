import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { AuthContract } from '@checkline/auth/contract';
import { queryRows } from '@checkline/db';
import type { CatalogContract } from '@checkline/catalog/contract';
import type { HealthcheckContract } from '@checkline/healthcheck/contract';
import type { NotificationContract } from '@checkline/notification/contract';
import type { FakeService } from '@checkline/notification-node/testing';
import { loopbackEgress, startFakeService } from '@checkline/notification-node/testing';
import type { ContractRouterClient } from '@orpc/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { egressChannelPlugins } from '../src/plugins.ts';
import { contractClient } from './support/contract-client.ts';
import { settledDeliveries } from './support/settled-deliveries.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 19 item 1 replayed over HTTP: a caller who may change settings but never saw a secret
 * points the setting the secret is sent with at a listener of theirs and leaves the secret
 * out. The secret is bound to the destination it was entered for, so the listener never gets it.
 */
type Contracts = {
  auth: AuthContract;
  catalog: CatalogContract;
  notification: NotificationContract;
  healthcheck: HealthcheckContract;
};
type Client = ContractRouterClient<Contracts>;

const SECRETS = {
  telegramToken: '4242:AAH-telegram_s3cret',
  twilioToken: 'twilio-s3cret-auth-token',
  ntfyTopic: 'topic-s3cret-Qx81',
  ntfyToken: 'tk_ntfys3cretaccess',
  slackSecret: 'slack-s3cret-client-secret',
  pgPassword: 'pg-s3cret-password',
};
const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
const ids = {
  telegram: 'notification-telegram.telegram',
  sms: 'notification-sms.sms',
  ntfy: 'notification-ntfy.ntfy',
  slack: 'notification-slack.slack',
} as const;

/** Every form a secret could travel in: raw, URL-encoded, base64 (alone or in `user:secret`). */
const formsOf = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  Buffer.from(secret).toString('base64').replace(/=+$/, ''),
  Buffer.from(`${ACCOUNT_SID}:${secret}`).toString('base64').replace(/=+$/, ''),
];
const carries = (text: string, secret: string) =>
  formsOf(secret).some((form) => text.includes(form));
const textOf = (fake: FakeService) =>
  fake.requests
    .map((request) => `${request.url}\n${JSON.stringify(request.headers)}\n${request.body}`)
    .join('\n');

let server: TestServer;
let admin: Client;
let adminUserId: string;
const legit = {} as Record<'telegram' | 'sms' | 'ntfy' | 'slack', FakeService>;
let listener: FakeService;

async function personWith(rules: string[], name: string): Promise<Client> {
  const role = await admin.auth.createRole({ name, accessRules: rules });
  const email = `${name}@example.com`;
  await admin.auth.createUser({ email, password: 'a sound enough password', roleIds: [role.id] });
  const session = await server.sessionOf(email, 'a sound enough password');
  return contractClient<Contracts>(() => server, session);
}

const hostOf = (fake: FakeService) => new URL(fake.url).host;

beforeAll(async () => {
  for (const channel of ['telegram', 'sms', 'ntfy', 'slack'] as const) {
    legit[channel] = await startFakeService(() => ({
      status: 200,
      body: { ok: true, result: {} },
    }));
  }
  listener = await startFakeService(() => ({ status: 200, body: { ok: true, result: {} } }));
  server = await createTestServer({
    extraPlugins: egressChannelPlugins(loopbackEgress()),
    notification: { delivery: { maxAttempts: 1 } },
  });
  const { cookie } = await server.adminSession();
  admin = contractClient<Contracts>(() => server, { cookie, origin: testEnv.BASE_URL });
  const { users } = await admin.auth.getUsers({});
  adminUserId = users.find((user) => user.email === testAdmin.email)!.id;
  const configs: Record<keyof typeof ids, Record<string, unknown>> = {
    telegram: { botToken: SECRETS.telegramToken, apiBaseUrl: legit.telegram.url },
    sms: {
      accountSid: ACCOUNT_SID,
      authToken: SECRETS.twilioToken,
      from: '+14155550100',
      apiBaseUrl: legit.sms.url,
    },
    ntfy: {
      defaultServerUrl: legit.ntfy.url,
      webhookHosts: [hostOf(legit.ntfy), hostOf(listener)],
      requireHttps: false,
    },
    slack: { clientId: '1234.5678', clientSecret: SECRETS.slackSecret, baseUrl: legit.slack.url },
  };
  for (const [channel, config] of Object.entries(configs)) {
    await admin.notification.updateStrategy({
      strategyId: ids[channel as keyof typeof ids],
      enabled: true,
      config,
    });
  }
  await admin.notification.updateMyChannel({ strategyId: ids.telegram, config: { chatId: '42' } });
  await admin.notification.updateMyChannel({
    strategyId: ids.sms,
    config: { phone: '+447700900123' },
  });
  await admin.notification.updateMyChannel({
    strategyId: ids.ntfy,
    config: { topic: SECRETS.ntfyTopic, accessToken: SECRETS.ntfyToken },
  });
});
afterAll(async () => {
  await server?.close();
  await Promise.all([listener, ...Object.values(legit)].map((fake) => fake?.close()));
});

/** The attacker's update, its error (if refused) kept to look at. */
const attempt = (update: Promise<unknown>) =>
  update.then(
    () => undefined,
    (error: { data?: { issues?: { path: string; message: string }[] } }) => error,
  );

const sendTo = async (strategyId: string) => {
  const answer = await admin.notification.sendExternal({
    userIds: [adminUserId],
    strategyId,
    notification: { title: 'Checkout is down', importance: 'critical', type: 'test.secrets' },
  });
  return settledDeliveries(admin.notification, answer.notificationId);
};

describe('a strategy secret is bound to its destination', () => {
  let manager: Client;
  beforeAll(async () => {
    manager = await personWith(['notification.strategy.manage'], 'strategy-manager');
  });

  it.each([
    ['telegram', { apiBaseUrl: 'LISTENER' }, 'botToken', SECRETS.telegramToken],
    [
      'sms',
      { accountSid: ACCOUNT_SID, from: '+14155550100', apiBaseUrl: 'LISTENER' },
      'authToken',
      SECRETS.twilioToken,
    ],
    ['slack', { clientId: '1234.5678', baseUrl: 'LISTENER' }, 'clientSecret', SECRETS.slackSecret],
  ] as const)(
    '%s: moving the service address without the secret is refused; the secret stays home',
    async (channel, change, secretField, secret) => {
      const config = Object.fromEntries(
        Object.entries(change).map(([key, value]) => [
          key,
          value === 'LISTENER' ? listener.url : value,
        ]),
      );
      const refused = await attempt(
        manager.notification.updateStrategy({ strategyId: ids[channel], config }),
      );
      if (channel !== 'slack') await sendTo(ids[channel]);
      expect(carries(textOf(listener), secret)).toBe(false);
      expect(refused?.data?.issues).toEqual([
        {
          path: `config.${secretField}`,
          message: expect.stringMatching(/changed: .*entered for; enter it again$/),
        },
      ]);
      const { strategies } = await admin.notification.getStrategies({});
      const view = strategies.find((strategy) => strategy.strategyId === ids[channel])!;
      expect(view.configSecrets[secretField]).toBe(true);
      expect(JSON.stringify(view.config)).not.toContain(hostOf(listener));
    },
  );

  it('ntfy: moving the default server drops the topic and token of users who use it', async () => {
    const moved = await attempt(
      manager.notification.updateStrategy({
        strategyId: ids.ntfy,
        config: {
          defaultServerUrl: listener.url,
          webhookHosts: [hostOf(legit.ntfy), hostOf(listener)],
          requireHttps: false,
        },
      }),
    );
    expect(moved).toBeUndefined();
    const [delivery] = await sendTo(ids.ntfy);
    expect(carries(textOf(listener), SECRETS.ntfyTopic)).toBe(false);
    expect(carries(textOf(listener), SECRETS.ntfyToken)).toBe(false);
    expect(delivery?.status).not.toBe('sent');
    const { channels } = await admin.notification.getMyChannels({});
    const ntfy = channels.find((channel) => channel.strategyId === ids.ntfy)!;
    expect(ntfy.configSecrets).not.toMatchObject({ topic: true });
    expect(ntfy.configSecrets).not.toMatchObject({ accessToken: true });
    // Entered again, for the new server, they are kept and used there.
    await admin.notification.updateMyChannel({
      strategyId: ids.ntfy,
      config: { topic: SECRETS.ntfyTopic, accessToken: SECRETS.ntfyToken },
    });
    const [again] = await sendTo(ids.ntfy);
    expect(again?.status).toBe('sent');
    expect(carries(textOf(listener), SECRETS.ntfyToken)).toBe(true);
  });
});

/** A PostgreSQL server of the attacker's: asks for the password in plain text and records it. */
async function startPasswordCatcher() {
  const received: string[] = [];
  const server: Server = createServer((socket: Socket) => {
    let startup = true;
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk.toString('latin1'));
      if (startup) {
        startup = false;
        // AuthenticationCleartextPassword.
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
        return;
      }
      socket.destroy();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received: () => received.join(''),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a check password is bound to its host and port', () => {
  it('moving an admin postgres check elsewhere without the password drops it', async () => {
    const catcher = await startPasswordCatcher();
    try {
      const system = await admin.catalog.createSystem({ name: 'warehouse' });
      const check = await admin.healthcheck.createHealthCheck({
        systemId: system.id,
        name: 'warehouse db',
        type: 'healthcheck.postgres',
        config: { host: '127.0.0.1', port: 5432, password: SECRETS.pgPassword, ssl: 'disable' },
        intervalSeconds: 3_600,
        timeoutMs: 5_000,
      });
      const manager = await personWith(['healthcheck.healthcheck.manage'], 'check-manager');
      await manager.healthcheck.updateHealthCheck({
        id: check.id,
        config: { host: '127.0.0.1', port: catcher.port, ssl: 'disable' },
      });
      const run = await manager.healthcheck.runHealthCheck({ id: check.id });
      expect(run.status).toBe('fail');
      expect(catcher.received()).toContain('user\0postgres');
      expect(catcher.received()).not.toContain(SECRETS.pgPassword);

      // Back home, the password has to be entered again: it was not kept for a later move.
      await admin.healthcheck.updateHealthCheck({
        id: check.id,
        config: { host: '127.0.0.1', port: 5432, ssl: 'disable' },
      });
      const [row] = await queryRows<{ config: Record<string, unknown> }>(
        server.database.db,
        sql`select config from healthcheck.health_checks where id = ${check.id}`,
      );
      expect(row?.config).not.toHaveProperty('password');
    } finally {
      await catcher.close();
    }
  });
});
