import type { AuthContract } from '@checkline/auth/contract';
import type { NotificationContract } from '@checkline/notification/contract';
import type { FakeService } from '@checkline/notification-node/testing';
import { jsonBody, loopbackEgress, startFakeService } from '@checkline/notification-node/testing';
import type { ContractRouterClient } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { egressChannelPlugins } from '../src/plugins.ts';
import { contractClient } from './support/contract-client.ts';
import { settledDeliveries } from './support/settled-deliveries.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 12 item 2 across plugins: every channel plugin mounted on a real server (a loopback
 * egress in place of the default one), configured through the API as an administrator and a
 * user would, delivering through the server's own queue to loopback servers playing each
 * service.
 */
type Contracts = { auth: AuthContract; notification: NotificationContract };

const SECRETS = {
  teamsSignature: 'teams-s3cret-signature',
  discordToken: 'discord-s3cret-webhook-token',
  telegramToken: '4242:AAH-telegram_s3cret',
  twilioToken: 'twilio-s3cret-auth-token',
  ntfyTopic: 'topic-s3cret-Qx81',
  ntfyToken: 'tk_ntfys3cretaccess',
  gotifyToken: 'gotify-s3cret-app-token',
  slackSecret: 'slack-s3cret-client-secret',
};
const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;

const plugins = egressChannelPlugins(loopbackEgress());

const ids = {
  teams: 'notification-teams.teams',
  discord: 'notification-discord.discord',
  telegram: 'notification-telegram.telegram',
  sms: 'notification-sms.sms',
  ntfy: 'notification-ntfy.ntfy',
  gotify: 'notification-gotify.gotify',
  slack: 'notification-slack.slack',
} as const;
type Channel = keyof typeof ids;

let server: TestServer;
let admin: ContractRouterClient<Contracts>;
let adminUserId: string;
const fakes = {} as Record<Exclude<Channel, 'slack'>, FakeService>;

const settled = (notificationId: string) => settledDeliveries(admin.notification, notificationId);

/** A request body as text, form encoding undone (Twilio's). */
const readable = (body: string) => {
  try {
    return decodeURIComponent(body.replace(/\+/g, ' '));
  } catch {
    return body;
  }
};

const hostOf = (fake: FakeService) => new URL(fake.url).host;
const loopbackRules = (fake: FakeService) => ({
  webhookHosts: [hostOf(fake)],
  requireHttps: false,
});

beforeAll(async () => {
  fakes.teams = await startFakeService(() => ({ status: 202 }));
  fakes.discord = await startFakeService(() => ({ status: 200, body: { id: '1' } }));
  fakes.telegram = await startFakeService(() => ({ status: 200, body: { ok: true, result: {} } }));
  fakes.sms = await startFakeService(() => ({ status: 201, body: { sid: 'SM1' } }));
  fakes.ntfy = await startFakeService(() => ({ status: 200, body: { id: 'n1' } }));
  fakes.gotify = await startFakeService(() => ({ status: 200, body: { id: 1 } }));
  server = await createTestServer({
    extraPlugins: plugins,
    notification: { delivery: { maxAttempts: 3, retryDelaysMs: [5, 10, 20] } },
  });
  const { cookie } = await server.adminSession();
  admin = contractClient<Contracts>(() => server, { cookie, origin: testEnv.BASE_URL });
  const { users } = await admin.auth.getUsers({});
  adminUserId = users.find((user) => user.email === testAdmin.email)!.id;

  const strategyConfigs: Record<Channel, unknown> = {
    teams: loopbackRules(fakes.teams),
    discord: loopbackRules(fakes.discord),
    telegram: { botToken: SECRETS.telegramToken, apiBaseUrl: fakes.telegram.url },
    sms: {
      accountSid: ACCOUNT_SID,
      authToken: SECRETS.twilioToken,
      from: '+14155550100',
      apiBaseUrl: fakes.sms.url,
    },
    ntfy: { defaultServerUrl: fakes.ntfy.url, ...loopbackRules(fakes.ntfy) },
    gotify: loopbackRules(fakes.gotify),
    slack: { clientId: '1234.5678', clientSecret: SECRETS.slackSecret },
  };
  for (const [channel, config] of Object.entries(strategyConfigs)) {
    await admin.notification.updateStrategy({
      strategyId: ids[channel as Channel],
      enabled: true,
      config: config as Record<string, unknown>,
    });
  }
  const userConfigs: Record<Exclude<Channel, 'slack'>, unknown> = {
    teams: { webhookUrl: `${fakes.teams.url}/workflows/1/invoke?sig=${SECRETS.teamsSignature}` },
    discord: { webhookUrl: `${fakes.discord.url}/api/webhooks/99/${SECRETS.discordToken}` },
    telegram: { chatId: '123456789' },
    sms: { phone: '+447700900123' },
    ntfy: { topic: SECRETS.ntfyTopic, accessToken: SECRETS.ntfyToken },
    gotify: { serverUrl: fakes.gotify.url, appToken: SECRETS.gotifyToken },
  };
  for (const [channel, config] of Object.entries(userConfigs)) {
    await admin.notification.updateMyChannel({
      strategyId: ids[channel as Channel],
      enabled: true,
      config: config as Record<string, unknown>,
    });
  }
});
afterAll(async () => {
  await server?.close();
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
});

const notification = {
  title: 'Checkout is down',
  description: 'Since **12:00**',
  importance: 'critical' as const,
  type: 'healthcheck.status_changed',
  action: { label: 'Open check', url: '/checks/1' },
};

describe('notification channel plugins on one server', () => {
  it('registers every channel, configured, with both instructions', async () => {
    const { strategies } = await admin.notification.getStrategies({});
    for (const id of Object.values(ids)) {
      const strategy = strategies.find((entry) => entry.strategyId === id);
      expect({
        id,
        configured: strategy?.configured,
        problems: strategy?.problems,
        instructions: Boolean(strategy?.adminInstructions && strategy.userInstructions),
      }).toEqual({ id, configured: true, problems: [], instructions: true });
    }
  });

  it('delivers one notification through every configured channel, each to its service', async () => {
    const before = Object.fromEntries(
      Object.entries(fakes).map(([channel, fake]) => [channel, fake.requests.length]),
    );
    const answer = await admin.notification.sendExternal({ userIds: [adminUserId], notification });
    const deliveries = await settled(answer.notificationId);
    const statusOf = (channel: Channel) =>
      deliveries.find((delivery) => delivery.strategyId === ids[channel])?.status;
    for (const channel of Object.keys(fakes) as Exclude<Channel, 'slack'>[]) {
      expect({ channel, status: statusOf(channel) }).toEqual({ channel, status: 'sent' });
      const received = fakes[channel].requests.slice(before[channel]);
      expect({ channel, requests: received.length }).toEqual({ channel, requests: 1 });
      expect(readable(received[0]!.body)).toContain('Checkout is down');
      // The action's path became an absolute address on the frontend.
      expect(readable(received[0]!.body)).toContain(`${testEnv.FRONTEND_URL}/checks/1`);
    }
    // Slack needs a linked account, which this user never set up: no delivery row at all.
    expect(deliveries.find((delivery) => delivery.strategyId === ids.slack)).toBeUndefined();
  });

  it('retries a delivery Telegram flood-limited, no sooner than its retry_after', async () => {
    fakes.telegram.answerNext({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 1',
        parameters: { retry_after: 1 },
      },
    });
    const before = fakes.telegram.requests.length;
    const answer = await admin.notification.sendExternal({
      userIds: [adminUserId],
      strategyId: ids.telegram,
      notification,
    });
    const [delivery] = await settled(answer.notificationId);
    expect(delivery).toMatchObject({ status: 'sent', attempts: 2 });
    expect(delivery!.attemptLog.map((attempt) => attempt.outcome)).toEqual(['retry', 'sent']);
    const [first, second] = delivery!.attemptLog.map((attempt) => Date.parse(attempt.at));
    expect(second! - first!).toBeGreaterThanOrEqual(1_000);
    expect(fakes.telegram.requests.length - before).toBe(2);
    expect(jsonBody(fakes.telegram.requests.at(-1))).toMatchObject({ chat_id: '123456789' });
  });

  it('fails a delivery at once when Discord says the webhook is gone', async () => {
    fakes.discord.answerNext({ status: 404, body: { message: 'Unknown Webhook', code: 10015 } });
    const answer = await admin.notification.sendExternal({
      userIds: [adminUserId],
      strategyId: ids.discord,
      notification,
    });
    const [delivery] = await settled(answer.notificationId);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
    expect(delivery!.lastError).toContain('Unknown Webhook');
  });

  it('never returns nor logs a secret of any channel', async () => {
    const strategies = await admin.notification.getStrategies({});
    const channels = await admin.notification.getMyChannels({});
    const everything = [JSON.stringify(strategies), JSON.stringify(channels), ...server.logLines];
    for (const [name, secret] of Object.entries(SECRETS)) {
      const leaks = everything.filter((text) => text.includes(secret)).length;
      expect({ name, leaks }).toEqual({ name, leaks: 0 });
    }
    expect(server.logLines.length).toBeGreaterThan(0);
  });
});
