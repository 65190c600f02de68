import type { AuthContract } from '@checkline/auth/contract';
import type { NotificationContract } from '@checkline/notification/contract';
import type { FakeService, ReceivedRequest } from '@checkline/notification-node/testing';
import { loopbackEgress, startFakeService } from '@checkline/notification-node/testing';
import type { SmtpTestServer } from '@checkline/notification-smtp/testing';
import { selfSignedCertificate, startSmtpTestServer } from '@checkline/notification-smtp/testing';
import type { ContractRouterClient } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { egressChannelPlugins } from '../src/plugins.ts';
import { contractClient } from './support/contract-client.ts';
import { settledDeliveries } from './support/settled-deliveries.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 19 item 10 over HTTP: every channel's service answers with an error that echoes what it
 * received (address, headers, body, and the same in base64). No secret of the configs involved
 * reaches getDeliveries or the log, in any form.
 */
type Contracts = { auth: AuthContract; notification: NotificationContract };
const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;

/** What the service received, echoed back raw and base64-encoded, as a careless service would. */
function echoOf(request: ReceivedRequest) {
  const seen = [
    request.url,
    request.headers.authorization ?? '',
    String(request.headers['x-gotify-key'] ?? ''),
    request.body,
  ].join(' ');
  return `${seen} ${Buffer.from(seen).toString('base64')}`;
}

interface ChannelCase {
  strategyId: string;
  config: (fake: FakeService) => Record<string, unknown>;
  userConfig?: (fake: FakeService) => Record<string, unknown>;
  secrets: string[];
  /** False for a secret that never travels (a signing key): nothing to echo, nothing to leak. */
  sentToService?: boolean;
}

const rules = (fake: FakeService) => ({
  webhookHosts: [new URL(fake.url).host],
  requireHttps: false,
});

const channels: Record<string, ChannelCase> = {
  telegram: {
    strategyId: 'notification-telegram.telegram',
    config: (fake) => ({ botToken: '4242:AAH-telegram_s3cret', apiBaseUrl: fake.url }),
    userConfig: () => ({ chatId: '123456789' }),
    secrets: ['4242:AAH-telegram_s3cret'],
  },
  sms: {
    strategyId: 'notification-sms.sms',
    config: (fake) => ({
      accountSid: ACCOUNT_SID,
      authToken: 'twilio-s3cret-auth-token',
      from: '+14155550100',
      apiBaseUrl: fake.url,
    }),
    userConfig: () => ({ phone: '+447700900123' }),
    secrets: ['twilio-s3cret-auth-token'],
  },
  teams: {
    strategyId: 'notification-teams.teams',
    config: rules,
    userConfig: (fake) => ({ webhookUrl: `${fake.url}/workflows/1/invoke?sig=teams-s3cret-sig` }),
    secrets: [`/workflows/1/invoke?sig=teams-s3cret-sig`, 'teams-s3cret-sig'],
  },
  discord: {
    strategyId: 'notification-discord.discord',
    config: rules,
    userConfig: (fake) => ({ webhookUrl: `${fake.url}/api/webhooks/99/discord-s3cret-token` }),
    secrets: ['discord-s3cret-token'],
  },
  ntfy: {
    strategyId: 'notification-ntfy.ntfy',
    config: (fake) => ({ defaultServerUrl: fake.url, ...rules(fake) }),
    userConfig: () => ({ topic: 'topic-s3cret-Qx81', accessToken: 'tk_ntfys3cretaccess' }),
    secrets: ['topic-s3cret-Qx81', 'tk_ntfys3cretaccess'],
  },
  gotify: {
    strategyId: 'notification-gotify.gotify',
    config: rules,
    userConfig: (fake) => ({ serverUrl: fake.url, appToken: 'gotify-s3cret-app-token' }),
    secrets: ['gotify-s3cret-app-token'],
  },
  webhook: {
    strategyId: 'notification-webhook.webhook',
    config: () => ({}),
    userConfig: (fake) => ({
      url: `${fake.url}/hook`,
      signingSecret: 'webhook-s3cret-signing-key',
    }),
    secrets: ['webhook-s3cret-signing-key'],
    sentToService: false,
  },
};

/** Each secret as a service could echo it: raw, URL-encoded, base64 of it and of a Basic pair. */
const formsOf = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  Buffer.from(secret).toString('base64').replace(/=+$/, ''),
  Buffer.from(`${ACCOUNT_SID}:${secret}`).toString('base64').replace(/=+$/, ''),
];

let server: TestServer;
let admin: ContractRouterClient<Contracts>;
let adminUserId: string;
const fakes: Record<string, FakeService> = {};
const certificate = selfSignedCertificate();
let smtp: SmtpTestServer;
const SMTP_USER = 'checkline-mailer-s3cret';
const SMTP_PASSWORD = 'smtp-pass-7f3a9c-s3cret';

beforeAll(async () => {
  for (const name of Object.keys(channels)) {
    fakes[name] = await startFakeService((request) => ({ status: 400, body: echoOf(request) }));
  }
  smtp = await startSmtpTestServer({
    auth: { user: SMTP_USER, pass: SMTP_PASSWORD },
    tls: certificate,
    echoCredentials: true,
  });
  server = await createTestServer({
    extraPlugins: egressChannelPlugins(loopbackEgress()),
    notification: { delivery: { maxAttempts: 1 } },
    smtp: { tls: { ca: certificate.cert }, egress: loopbackEgress() },
  });
  const { cookie } = await server.adminSession();
  admin = contractClient<Contracts>(() => server, { cookie, origin: testEnv.BASE_URL });
  const { users } = await admin.auth.getUsers({});
  adminUserId = users.find((user) => user.email === testAdmin.email)!.id;
  for (const [name, channel] of Object.entries(channels)) {
    const fake = fakes[name]!;
    await admin.notification.updateStrategy({
      strategyId: channel.strategyId,
      enabled: true,
      config: channel.config(fake),
    });
    if (channel.userConfig) {
      await admin.notification.updateMyChannel({
        strategyId: channel.strategyId,
        enabled: true,
        config: channel.userConfig(fake),
      });
    }
  }
});
afterAll(async () => {
  await server?.close();
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
  await smtp?.close();
});

/** Where `secrets` show in getDeliveries of `strategyId` or in the log, in any form. */
async function leaksOf(strategyId: string, secrets: readonly string[]) {
  const { deliveries } = await admin.notification.getDeliveries({ strategyId });
  const shown = JSON.stringify(deliveries);
  const logged = server.logLines.join('\n');
  return secrets.flatMap((secret) =>
    formsOf(secret).flatMap((form) => [
      ...(shown.includes(form) ? [`getDeliveries: ${form}`] : []),
      ...(logged.includes(form) ? [`log: ${form}`] : []),
    ]),
  );
}

describe('a service echoing what it received', () => {
  it.each(Object.keys(channels))('%s: no secret reaches the delivery log', async (name) => {
    const channel = channels[name]!;
    const answer = await admin.notification.sendExternal({
      userIds: [adminUserId],
      strategyId: channel.strategyId,
      notification: { title: 'Checkout is down', importance: 'critical', type: 'test.echo' },
    });
    const [delivery] = await settledDeliveries(admin.notification, answer.notificationId);
    // The service did receive a secret and answered it back: the echo is there to be scrubbed.
    const echoed = fakes[name]!.requests.map(echoOf).join(' ');
    const sent = channel.secrets.some((secret) => formsOf(secret).some((f) => echoed.includes(f)));
    expect(sent).toBe(channel.sentToService ?? true);
    expect(delivery).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('HTTP 400'),
    });
    expect(await leaksOf(channel.strategyId, channel.secrets)).toEqual([]);
  });

  it('smtp: neither the user name, the password nor the AUTH PLAIN blob reaches the log', async () => {
    const strategyId = 'notification-smtp.smtp';
    await admin.notification.updateStrategy({
      strategyId,
      enabled: true,
      config: {
        host: 'localhost',
        port: smtp.port,
        username: SMTP_USER,
        password: SMTP_PASSWORD,
        fromAddress: 'checkline@example.com',
      },
    });
    const answer = await admin.notification.sendExternal({
      userIds: [adminUserId],
      strategyId,
      notification: { title: 'Checkout is down', importance: 'critical', type: 'test.echo' },
    });
    const [delivery] = await settledDeliveries(admin.notification, answer.notificationId);
    expect(delivery).toMatchObject({ status: 'failed', lastError: expect.stringContaining('535') });
    const blob = Buffer.from(`\0${SMTP_USER}\0${SMTP_PASSWORD}`).toString('base64');
    expect(await leaksOf(strategyId, [SMTP_USER, SMTP_PASSWORD, blob])).toEqual([]);
  });
});
