import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthContract } from '@checkline/auth/contract';
import type { NotificationContract } from '@checkline/notification/contract';
import { loopbackEgress } from '@checkline/notification-node/testing';
import type { ReceivedMail, SmtpTestServer } from '@checkline/notification-smtp/testing';
import { startSmtpTestServer } from '@checkline/notification-smtp/testing';
import type { ContractRouterClient } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enableSmtp,
  eventually as eventuallyWithin,
  httpCheckedSystem,
  restCall,
  warningsIn,
} from './support/alert-channels.ts';
import { contractClient } from './support/contract-client.ts';
import { monitoringRules } from './support/team-world.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 22 item 3 over loopback with a real SMTP server: a subscription that asks for reminders
 * repeats the alert until someone acknowledges it (through the API or the e-mail's link), an
 * unacknowledged alert reaches the escalation contact, a recovery ends the reminders, and
 * forged or replayed links change nothing. The server accepts one-second intervals here
 * (`minIntervalSeconds`), the same code path as minutes in production.
 */
type Contracts = { auth: AuthContract; notification: NotificationContract };
type Client = ContractRouterClient<Contracts>;

const PASSWORD = 'a sound enough password';
/**
 * How long one step (a mail reaching the SMTP server) may take: a check run, an event, a
 * delivery and an SMTP session in this test's process, on a machine busy with other test files.
 */
const WAIT_MS = 60_000;
/** A scenario waits for several such steps in turn. */
const SCENARIO_MS = 4 * WAIT_MS;
const ACK_LINK = /http:\/\/[^\s"<>]+\/api\/notification\/alerts\/acknowledge\/[A-Za-z0-9_.-]+/;

let server: TestServer;
let smtp: SmtpTestServer;
let adminHeaders: Record<string, string>;
let admin: Client;
let roleId: string;

let targetStatus = 500;
const target = createServer((_request, response) => {
  response.writeHead(targetStatus).end('target says hello');
});
let targetUrl: string;

const rest = (path: string, body: unknown, method?: string) =>
  restCall(server, adminHeaders, path, body, method);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) until `found` answers something. */
const eventually = <T>(what: string, found: () => T | undefined) =>
  eventuallyWithin(what, found, WAIT_MS, { explain: () => warningsIn(server.logLines) });

const mailsTo = (email: string, subject: string): ReceivedMail[] =>
  smtp.received.filter((mail) => mail.recipients.includes(email) && mail.mail.subject === subject);

/** Waits until `email` holds at least `count` mails titled `subject`. */
const atLeast = (email: string, subject: string, count: number) =>
  eventually(`${count} × "${subject}" to ${email}`, () => {
    const mails = mailsTo(email, subject);
    return mails.length >= count ? mails : undefined;
  });

let people = 0;
async function person(name: string) {
  const email = `${name}-${++people}@example.com`;
  const user = await admin.auth.createUser({ email, password: PASSWORD, roleIds: [roleId] });
  const client = contractClient<Contracts>(() => server, await server.sessionOf(email, PASSWORD));
  return { id: user.id, email, client };
}

/** A system with an http check against the loopback target. */
const monitoredSystem = (name: string) => httpCheckedSystem(rest, { name, url: targetUrl });

/** A monitored system `name` that `watcher` follows with reminders every second (and `more`). */
async function remindedOf(watcher: { client: Client }, name: string, more: object = {}) {
  const { systemId, checkId } = await monitoredSystem(name);
  const subscription = await watcher.client.notification.createSubscription({
    systemId,
    events: ['health'],
    remindEverySeconds: 1,
    ...more,
  });
  return { systemId, checkId, subscription };
}

/** Makes the target fail and runs the check: the system turns unhealthy. */
async function failCheck(checkId: string) {
  targetStatus = 500;
  await rest('healthcheck/runHealthCheck', { id: checkId });
}

/** The path and token of the acknowledgement link in `mail`. */
function ackLinkOf(mail: ReceivedMail) {
  const url = ACK_LINK.exec(mail.mail.text ?? '')?.[0];
  expect(url, 'the mail carries an acknowledgement link').toBeDefined();
  expect(url!.startsWith(testEnv.BASE_URL)).toBe(true);
  return url!.slice(testEnv.BASE_URL.length);
}

beforeAll(async () => {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
  smtp = await startSmtpTestServer();
  server = await createTestServer({
    // The tests run their checks themselves; a scheduled run beside them would change the status.
    scheduledChecks: false,
    smtp: { egress: loopbackEgress() },
    notification: {
      delivery: { maxAttempts: 3, retryDelaysMs: [5, 20] },
      reminders: { minIntervalSeconds: 1, pollMs: 100 },
    },
  });
  const { cookie } = await server.adminSession();
  adminHeaders = { cookie, origin: testEnv.BASE_URL };
  admin = contractClient<Contracts>(() => server, adminHeaders);
  await enableSmtp(admin, smtp.port);
  const role = await admin.auth.createRole({
    name: 'on-call',
    accessRules: [...monitoringRules, 'notification-smtp.strategy.smtp.use'],
  });
  roleId = role.id;
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
  await new Promise((resolve) => target.close(resolve));
});

describe('alert reminders and escalation over loopback', { timeout: SCENARIO_MS }, () => {
  describe('works', () => {
    it('repeats an alert until it is acknowledged through the API, then stops', async () => {
      const watcher = await person('watcher');
      const { systemId, checkId, subscription } = await remindedOf(watcher, 'Billing API');
      expect(subscription).toMatchObject({ remindEverySeconds: 1, escalateToUserId: null });
      await failCheck(checkId);

      await atLeast(watcher.email, 'Now unhealthy: Billing API', 1);
      const reminders = await atLeast(watcher.email, 'Reminder: Now unhealthy: Billing API', 2);
      expect(reminders[0]!.mail.text).toContain('Still open and not acknowledged');
      expect(reminders[0]!.mail.text).toContain('(reminder 1)');
      const { alerts } = await watcher.client.notification.getMyAlerts({});
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ systemIds: [systemId], state: 'open' });

      const acknowledged = await watcher.client.notification.acknowledgeAlert({
        id: alerts[0]!.id,
      });
      expect(acknowledged).toMatchObject({ state: 'acknowledged', acknowledgedBy: watcher.id });
      // Queued reminders still go out; none is queued after the acknowledgement.
      const { alerts: after } = await watcher.client.notification.getMyAlerts({});
      const sentBefore = after[0]!.remindersSent;
      // Every reminder counted has arrived (a busy machine delivers late), then none more.
      await atLeast(watcher.email, 'Reminder: Now unhealthy: Billing API', sentBefore);
      await pause(3_000);
      const { alerts: later } = await watcher.client.notification.getMyAlerts({});
      expect(later[0]!.remindersSent).toBe(sentBefore);
      expect(mailsTo(watcher.email, 'Reminder: Now unhealthy: Billing API')).toHaveLength(
        sentBefore,
      );
      // Acknowledging again changes nothing.
      const again = await watcher.client.notification.acknowledgeAlert({ id: alerts[0]!.id });
      expect(again.acknowledgedAt).toBe(acknowledged.acknowledgedAt);
    });

    it('puts the acknowledgement link in the first alert: acknowledged from it, no reminder follows', async () => {
      const watcher = await person('early');
      const bystander = await person('bystander');
      const { systemId, checkId } = await monitoredSystem('Payments');
      await watcher.client.notification.createSubscription({
        systemId,
        events: ['health'],
        remindEverySeconds: 5,
      });
      // Without reminders, the same alert carries no link.
      await bystander.client.notification.createSubscription({ systemId, events: ['health'] });
      await failCheck(checkId);

      const [first] = await atLeast(watcher.email, 'Now unhealthy: Payments', 1);
      expect(first!.mail.text).toContain('Reminders are on for this alert');
      const path = ackLinkOf(first!);
      const { notifications } = await watcher.client.notification.getNotifications({});
      const inboxed = notifications.find((entry) => entry.title === 'Now unhealthy: Payments');
      expect(inboxed?.action).toEqual({ label: 'Acknowledge', url: `${testEnv.BASE_URL}${path}` });
      const [plain] = await atLeast(bystander.email, 'Now unhealthy: Payments', 1);
      expect(ACK_LINK.test(plain!.mail.text ?? '')).toBe(false);

      expect((await server.request(path, { method: 'POST' })).status).toBe(200);
      const { alerts } = await watcher.client.notification.getMyAlerts({});
      expect(alerts[0]).toMatchObject({ state: 'acknowledged', acknowledgedBy: watcher.id });
      const sent = alerts[0]!.remindersSent;
      expect(sent).toBe(0);
      await pause(6_000);
      expect(mailsTo(watcher.email, 'Reminder: Now unhealthy: Payments')).toHaveLength(0);
      const { alerts: later } = await watcher.client.notification.getMyAlerts({});
      expect(later[0]!.remindersSent).toBe(0);
    });

    it('escalates to the second person once when nobody acknowledges, who acknowledges with the e-mail link', async () => {
      const watcher = await person('sleeper');
      const oncall = await person('oncall');
      const { checkId } = await remindedOf(watcher, 'Ledger', {
        escalateAfterSeconds: 2,
        escalateToUserId: oncall.id,
      });
      await failCheck(checkId);

      const [escalation] = await atLeast(oncall.email, 'Escalated: Now unhealthy: Ledger', 1);
      expect(escalation!.mail.text).toContain('Escalated to you');
      // The second person did not subscribe: only the escalation reached them.
      expect(mailsTo(oncall.email, 'Now unhealthy: Ledger')).toHaveLength(0);
      const path = ackLinkOf(escalation!);

      // Opening the link changes nothing; its page's button POSTs it.
      const page = await server.request(path);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<form method="post">');
      const { alerts: open } = await oncall.client.notification.getMyAlerts({});
      expect(open[0]).toMatchObject({ state: 'open', escalateToUserId: oncall.id });

      const ack = await server.request(path, { method: 'POST' });
      expect(ack.status).toBe(200);
      const { alerts } = await watcher.client.notification.getMyAlerts({});
      expect(alerts[0]).toMatchObject({ state: 'acknowledged', acknowledgedBy: oncall.id });
      const remindersSent = alerts[0]!.remindersSent;
      await pause(3_000);
      expect(mailsTo(oncall.email, 'Escalated: Now unhealthy: Ledger')).toHaveLength(1);
      const { alerts: later } = await watcher.client.notification.getMyAlerts({});
      expect(later[0]!.remindersSent).toBe(remindersSent);
    });

    it('tells the holder when the escalation reaches nobody (its contact was deleted), with the link to acknowledge', async () => {
      const watcher = await person('holder');
      const oncall = await person('leaver');
      const { checkId } = await remindedOf(watcher, 'Payroll', {
        escalateAfterSeconds: 2,
        escalateToUserId: oncall.id,
      });
      await admin.auth.deleteUser({ id: oncall.id });
      await failCheck(checkId);

      const [told] = await atLeast(watcher.email, 'Not escalated: Now unhealthy: Payroll', 1);
      expect(told!.mail.text).toContain('Nobody was told');
      expect(mailsTo(oncall.email, 'Escalated: Now unhealthy: Payroll')).toHaveLength(0);
      const ack = await server.request(ackLinkOf(told!), { method: 'POST' });
      expect(ack.status).toBe(200);
      const { alerts } = await watcher.client.notification.getMyAlerts({});
      expect(alerts[0]).toMatchObject({ state: 'acknowledged', acknowledgedBy: watcher.id });
      // Said once, as an escalation is made once.
      expect(mailsTo(watcher.email, 'Not escalated: Now unhealthy: Payroll')).toHaveLength(1);
    });

    it('reminds a team’s current members, escalates to a team, and any member’s acknowledgement stops it', async () => {
      const [stays, leaves, first, second] = [
        await person('team-a'),
        await person('team-a'),
        await person('team-b'),
        await person('team-b'),
      ];
      const teamA = await admin.auth.createTeam({ name: `Owners ${people}` });
      const teamB = await admin.auth.createTeam({ name: `Backup ${people}` });
      for (const member of [stays, leaves]) {
        await admin.auth.addTeamMember({ teamId: teamA.id, userId: member.id });
      }
      for (const member of [first, second]) {
        await admin.auth.addTeamMember({ teamId: teamB.id, userId: member.id });
      }
      const { systemId, checkId } = await monitoredSystem('Orders');
      const routed = await admin.notification.createSubscriptionFor({
        teamId: teamA.id,
        systemId,
        events: ['health'],
        remindEverySeconds: 1,
        escalateAfterSeconds: 2,
        escalateToTeamId: teamB.id,
      });
      expect(routed).toMatchObject({ teamId: teamA.id, escalateToTeamId: teamB.id });
      await failCheck(checkId);

      // Each member's first alert carries their own link.
      const links = [];
      for (const member of [stays, leaves]) {
        const [mail] = await atLeast(member.email, 'Now unhealthy: Orders', 1);
        links.push(ackLinkOf(mail!));
      }
      expect(links[0]).not.toBe(links[1]);
      const { alerts } = await stays.client.notification.getMyAlerts({});
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ teamId: teamA.id, state: 'open' });

      // A removed member stops hearing (a reminder already queued may still arrive) and
      // can no longer acknowledge with their link.
      // Counted by when each reminder was made, not by when its mail arrived: on a busy machine
      // reminders queued before the removal can arrive seconds after it.
      const reminder = 'Reminder: Now unhealthy: Orders';
      await atLeast(leaves.email, reminder, 1);
      await admin.auth.removeTeamMember({ teamId: teamA.id, userId: leaves.id });
      const removedAt = Date.now();
      const atRemoval = mailsTo(stays.email, reminder).length;
      await atLeast(stays.email, reminder, atRemoval + 4);
      const { deliveries: toLeaver } = await admin.notification.getDeliveries({
        userId: leaves.id,
        limit: 100,
      });
      expect(toLeaver.filter(({ title }) => title === reminder).length).toBeGreaterThan(0);
      const madeAfterRemoval = toLeaver.filter(
        ({ title, createdAt }) => title === reminder && Date.parse(createdAt) > removedAt,
      );
      expect(madeAfterRemoval).toEqual([]);
      expect((await server.request(links[1]!, { method: 'POST' })).status).toBe(400);

      // Every member of the escalation team hears once; one of them acknowledges for everyone.
      const escalated = 'Escalated: Now unhealthy: Orders';
      const [escalation] = await atLeast(second.email, escalated, 1);
      await atLeast(first.email, escalated, 1);
      expect((await server.request(ackLinkOf(escalation!), { method: 'POST' })).status).toBe(200);
      const { alerts: done } = await stays.client.notification.getMyAlerts({});
      expect(done[0]).toMatchObject({ state: 'acknowledged', acknowledgedBy: second.id });
      const sent = done[0]!.remindersSent;
      await pause(3_000);
      const { alerts: later } = await first.client.notification.getMyAlerts({});
      expect(later[0]).toMatchObject({ id: done[0]!.id, remindersSent: sent });
      for (const member of [first, second])
        expect(mailsTo(member.email, escalated)).toHaveLength(1);
      expect((await server.request(links[0]!, { method: 'POST' })).status).toBe(410);
    });

    it('ends the reminders when the system recovers', async () => {
      const watcher = await person('recovering');
      const { checkId } = await remindedOf(watcher, 'Search');
      await failCheck(checkId);
      await atLeast(watcher.email, 'Reminder: Now unhealthy: Search', 1);
      targetStatus = 200;
      await rest('healthcheck/runHealthCheck', { id: checkId });
      await atLeast(watcher.email, 'Now healthy: Search', 1);
      const { alerts } = await watcher.client.notification.getMyAlerts({});
      expect(alerts[0]).toMatchObject({ state: 'resolved' });
      const sent = alerts[0]!.remindersSent;
      await atLeast(watcher.email, 'Reminder: Now unhealthy: Search', sent);
      await pause(3_000);
      expect(mailsTo(watcher.email, 'Reminder: Now unhealthy: Search')).toHaveLength(sent);
    });
  });

  describe('rejects bad input', () => {
    it('refuses an interval below the server minimum, and an escalation without its contact', async () => {
      const watcher = await person('hasty');
      const { systemId } = await monitoredSystem('Queue');
      const missing = '00000000-0000-4000-8000-000000000000';
      const own = watcher.client.notification;
      const forWatcher = (escalation: object) =>
        admin.notification.createSubscriptionFor({
          userId: watcher.id,
          systemId,
          escalateAfterSeconds: 5,
          ...escalation,
        });
      const refusals: [string, () => Promise<unknown>, string][] = [
        [
          'an interval of 0',
          () => own.createSubscription({ systemId, remindEverySeconds: 0 }),
          'BAD_REQUEST',
        ],
        [
          'no contact',
          () => own.createSubscription({ systemId, escalateAfterSeconds: 5 }),
          'BAD_REQUEST',
        ],
        [
          'a missing user',
          () =>
            own.createSubscription({
              systemId,
              escalateAfterSeconds: 5,
              escalateToUserId: missing,
            }),
          'NOT_FOUND',
        ],
        ['a missing team', () => forWatcher({ escalateToTeamId: missing }), 'NOT_FOUND'],
        [
          'a user and a team',
          () => forWatcher({ escalateToUserId: watcher.id, escalateToTeamId: missing }),
          'BAD_REQUEST',
        ],
      ];
      for (const [what, attempt, code] of refusals) {
        await expect(attempt(), what).rejects.toMatchObject({ code });
      }
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses forged and replayed acknowledgement links, and another person’s alert', async () => {
      const watcher = await person('forger');
      const stranger = await person('stranger');
      const { checkId } = await remindedOf(watcher, 'Mailer');
      await failCheck(checkId);
      const [reminder] = await atLeast(watcher.email, 'Reminder: Now unhealthy: Mailer', 1);
      const path = ackLinkOf(reminder!);
      const { alerts } = await watcher.client.notification.getMyAlerts({});

      await expect(
        stranger.client.notification.acknowledgeAlert({ id: alerts[0]!.id }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      const [payload, mac] = path.slice(path.lastIndexOf('/') + 1).split('.') as [string, string];
      const claim = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        u: string;
      };
      // The same MAC over a payload naming the stranger; a MAC with one character changed.
      const forgedPayload = Buffer.from(JSON.stringify({ ...claim, u: stranger.id })).toString(
        'base64url',
      );
      const base = path.slice(0, path.lastIndexOf('/') + 1);
      const flipped = `${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`;
      for (const forged of [`${forgedPayload}.${mac}`, `${payload}.${flipped}`, 'not-a-token']) {
        const answer = await server.request(`${base}${forged}`, { method: 'POST' });
        expect(answer.status, forged).toBe(400);
        expect((await server.request(`${base}${forged}`)).status).toBe(400);
      }
      const { alerts: stillOpen } = await watcher.client.notification.getMyAlerts({});
      expect(stillOpen[0]!.state).toBe('open');

      expect((await server.request(path, { method: 'POST' })).status).toBe(200);
      const replay = await server.request(path, { method: 'POST' });
      expect(replay.status).toBe(410);
      expect((await server.request(path)).status).toBe(410);
      const { alerts: done } = await watcher.client.notification.getMyAlerts({});
      expect(done[0]).toMatchObject({ state: 'acknowledged', acknowledgedBy: watcher.id });
    });
  });
});
