import type { AuthContract } from '@checkline/auth/contract';
import { createEgress } from '@checkline/net';
import type { NotificationContract } from '@checkline/notification/contract';
import type { LoopbackServer } from '@checkline/notification-node/testing';
import { loopbackEgress, startLoopbackServer } from '@checkline/notification-node/testing';
import type { SmtpTestServer } from '@checkline/notification-smtp/testing';
import { startSmtpTestServer } from '@checkline/notification-smtp/testing';
import { createWebhookChannelPlugin } from '@checkline/notification-webhook';
import type { ContractRouterClient } from '@orpc/contract';
import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableSmtp, enableWebhook, eventually } from './support/alert-channels.ts';
import { contractClient } from './support/contract-client.ts';
import { settledDeliveries } from './support/settled-deliveries.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 22 item 5 over HTTP: a webhook channel whose receiver keeps answering 500 is reported to
 * the administrator once (inbox and e-mail, never the failing channel), however many of its
 * attempts fail; once it has worked again, a new failing spell is reported again.
 */
type Contracts = { auth: AuthContract; notification: NotificationContract };
type Client = ContractRouterClient<Contracts>;

const WEBHOOK = 'notification-webhook.webhook';
const FAILING_TYPE = 'notification.channel_failing';
const THRESHOLD = 3;

let server: TestServer;
let receiver: LoopbackServer;
let smtp: SmtpTestServer;
let admin: Client;
let receiverAnswers = 500;
let hits = 0;

/** The webhook's failed attempts in a row as the server counts them (read with SQL). */
async function failuresInARow(): Promise<number> {
  const [row] = await queryRows<{ consecutive_failures: number }>(
    server.database.db,
    sql`select consecutive_failures from notification.channel_health where strategy_id = ${WEBHOOK}`,
  );
  return row?.consecutive_failures ?? 0;
}

/**
 * Sends one notification through the webhook to the admin and waits until it is settled and its
 * attempts are counted: the count (and a report it calls for) is written after the delivery's
 * outcome, so on a busy machine a test reading on at once could run ahead of it.
 */
async function sendThroughWebhook(title: string, failuresAfter: number) {
  const answer = await admin.notification.sendExternal({
    userIds: [(await admin.auth.getMe({})).id!],
    strategyId: WEBHOOK,
    notification: { title, type: 'test.alert' },
  });
  const deliveries = await settledDeliveries(admin.notification, answer.notificationId, {
    atLeastOne: true,
  });
  await eventually(
    `${failuresAfter} failures in a row counted`,
    async () => ((await failuresInARow()) === failuresAfter ? true : undefined),
    15_000,
  );
  return deliveries;
}

/** Waits for the deliveries of the reports, if any, to settle. */
async function settledReports() {
  await server.checkline.runtime.events.settled();
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { deliveries } = await admin.notification.getDeliveries({ limit: 1000 });
    const reports = deliveries.filter((delivery) => delivery.type === FAILING_TYPE);
    if (reports.every((delivery) => delivery.status !== 'pending')) return reports;
    if (Date.now() > deadline) throw new Error('report deliveries still pending');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const inboxReports = async () =>
  (await admin.notification.getNotifications({ limit: 100 })).notifications.filter(
    (item) => item.type === FAILING_TYPE,
  );
const mailedReports = () =>
  smtp.received.filter(
    (mail) =>
      mail.recipients.includes(testAdmin.email) &&
      (mail.mail.subject ?? '').includes(`${WEBHOOK} keeps failing`),
  );

beforeAll(async () => {
  receiver = await startLoopbackServer((_request, response) => {
    hits += 1;
    response.writeHead(receiverAnswers).end(receiverAnswers === 200 ? 'ok' : 'down');
  });
  smtp = await startSmtpTestServer();
  server = await createTestServer({
    extraPlugins: [createWebhookChannelPlugin({ egress: createEgress({ allowPrivate: true }) })],
    smtp: { egress: loopbackEgress() },
    notification: {
      delivery: {
        maxAttempts: 2,
        retryDelaysMs: [5],
        channelFailuresBeforeReport: THRESHOLD,
      },
    },
  });
  const { cookie } = await server.adminSession();
  admin = contractClient<Contracts>(() => server, { cookie, origin: testEnv.BASE_URL });
  await enableWebhook(admin, `${receiver.url}/hook`, 'whsec-never-in-a-report-0123456789');
  await enableSmtp(admin, smtp.port, 'ops@example.com');
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await smtp?.close();
});

describe('a channel that keeps failing', () => {
  it('is reported to the admin once, through the inbox and the other channels, and again only after it recovered', async () => {
    // Four deliveries of two attempts each: eight failed attempts in a row, threshold three.
    for (let index = 0; index < 4; index += 1) {
      const [delivery] = await sendThroughWebhook(`alert ${index}`, 2 * (index + 1));
      expect(delivery).toMatchObject({ status: 'failed', attempts: 2 });
    }
    const reports = await settledReports();
    expect(hits).toBe(8);
    expect(await inboxReports()).toHaveLength(1);
    const [report] = await inboxReports();
    expect(report).toMatchObject({
      title: `Notification channel ${WEBHOOK} keeps failing`,
      importance: 'critical',
    });
    expect(report!.body).toContain(`The last **${THRESHOLD}** attempts`);
    expect(report!.body).toContain('500');
    expect(JSON.stringify(report)).not.toContain('whsec-never-in-a-report');
    // Never through the failing channel itself; by e-mail, once.
    expect(reports.map((delivery) => delivery.strategyId)).toEqual(['notification-smtp.smtp']);
    expect(reports[0]).toMatchObject({
      status: 'sent',
      recipient: expect.stringContaining(testAdmin.email) as string,
    });
    expect(mailedReports()).toHaveLength(1);

    // It works once: the count starts again, and a new failing spell is a new report.
    receiverAnswers = 200;
    expect((await sendThroughWebhook('works again', 0))[0]).toMatchObject({ status: 'sent' });
    receiverAnswers = 500;
    await sendThroughWebhook('down again 1', 2);
    expect(await inboxReports()).toHaveLength(1);
    await sendThroughWebhook('down again 2', 4);
    await settledReports();
    expect(await inboxReports()).toHaveLength(2);
    expect(mailedReports()).toHaveLength(2);
  });
});
