import { randomBytes } from 'node:crypto';
import type { AuthContract } from '@checkline/auth/contract';
import { Keyring } from '@checkline/core';
import { signUnsubscribeToken, UNSUBSCRIBE_PATH } from '@checkline/notification';
import type { NotificationContract } from '@checkline/notification/contract';
import { loopbackEgress } from '@checkline/notification-node/testing';
import type { ReceivedMail, SmtpTestServer } from '@checkline/notification-smtp/testing';
import {
  selfSignedCertificate,
  startSmtpTestServer,
  unsubscribeHeadersOf,
} from '@checkline/notification-smtp/testing';
import type { ContractRouterClient } from '@orpc/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract-client.ts';
import { settledDeliveries } from './support/settled-deliveries.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 11 item 3 over HTTP: the server's own e-mail channel (`notification-smtp.smtp`),
 * configured through updateStrategy, delivers sendExternal's notifications to real in-process
 * SMTP servers; its one-click unsubscribe links switch the channel off.
 */
type Contracts = { auth: AuthContract; notification: NotificationContract };
type Client = ContractRouterClient<Contracts>;

const STRATEGY = 'notification-smtp.smtp';
const USE_RULE = 'notification-smtp.strategy.smtp.use';
const PASSWORD = 'smtp-pass-7f3a9c-never-shown';
const credentials = { user: 'checkline-mailer', pass: PASSWORD };
const layoutConfig = {
  logoUrl: 'https://cdn.example/brand/logo.png',
  primaryColor: '#123456',
  accentColor: '#abcdef',
  footerText: 'Sent by Example Ops',
};

const certificate = selfSignedCertificate();
const keyring = new Keyring(randomBytes(32));
let server: TestServer;
let plain: SmtpTestServer;
let guarded: SmtpTestServer;
let admin: Client;
let sender: Client;
let roleId: string;
let names = 0;
const clientWith = (headers: Record<string, string>) =>
  contractClient<Contracts>(() => server, headers);

async function newUser(): Promise<{ id: string; email: string }> {
  const email = `mail-user-${++names}@example.com`;
  const user = await admin.auth.createUser({
    email,
    password: 'a sound enough password',
    roleIds: [roleId],
  });
  return { id: user.id, email };
}

const settled = (notificationId: string) =>
  settledDeliveries(admin.notification, notificationId, { atLeastOne: true });

const notification = {
  title: 'Checkout is down',
  description: 'Since **12:00** the checkout answers `HTTP 503`.',
  importance: 'critical' as const,
  type: 'healthcheck.status_changed',
  action: { label: 'Open the incident', url: '/incidents/7' },
};

async function sendTo(userId: string, extra: Partial<typeof notification> = {}) {
  const answer = await sender.notification.sendExternal({
    userIds: [userId],
    strategyId: STRATEGY,
    notification: { ...notification, ...extra },
  });
  return { answer, deliveries: await settled(answer.notificationId) };
}

const configFor = (port: number) => ({
  host: 'localhost',
  port,
  secure: false,
  fromAddress: 'alerts@status.example',
  fromName: 'Example status',
});

/** The messages `smtp` received for `address`. */
const mailTo = (smtp: SmtpTestServer, address: string): ReceivedMail[] =>
  smtp.received.filter((message) => message.recipients.includes(address));

const unsubscribe = (path: string) =>
  server.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });

beforeAll(async () => {
  plain = await startSmtpTestServer();
  guarded = await startSmtpTestServer({ auth: credentials, tls: certificate });
  server = await createTestServer({
    notification: {
      keyring,
      delivery: { maxAttempts: 3, retryDelaysMs: [5, 10, 20] },
    },
    // The test server listens on loopback, which the server's own guard refuses.
    smtp: { tls: { ca: certificate.cert }, egress: loopbackEgress() },
  });
  const { cookie } = await server.adminSession();
  admin = clientWith({ cookie, origin: testEnv.BASE_URL });
  roleId = (await admin.auth.createRole({ name: 'mail-readers', accessRules: [USE_RULE] })).id;
  const role = await admin.auth.createRole({
    name: 'mail-sender',
    accessRules: ['notification.notification.send'],
  });
  const { application, secret } = await admin.auth.createApplication({ name: 'mailer-app' });
  await admin.auth.updateApplication({ id: application.id, roleIds: [role.id] });
  sender = clientWith({ authorization: `Bearer ${secret}` });
});
afterAll(async () => {
  await server?.close();
  await plain?.close();
  await guarded?.close();
});

describe('the smtp channel over HTTP', () => {
  describe('works', () => {
    it('is offered by the running server, with its schemas and instructions', async () => {
      const { strategies } = await admin.notification.getStrategies({});
      const smtp = strategies.find((strategy) => strategy.strategyId === STRATEGY);
      expect(smtp).toMatchObject({
        ownerPluginId: 'notification-smtp',
        contactResolution: 'auth-email',
        useRule: USE_RULE,
        schemas: {
          config: {
            properties: {
              port: { default: 587 },
              secure: { default: false },
              password: { 'x-secret': true },
              username: { 'x-secret': true },
              fromAddress: { format: 'email' },
            },
          },
          layoutConfig: { properties: { primaryColor: { 'x-color': true } } },
        },
      });
      expect(smtp?.adminInstructions).toContain('STARTTLS');
    });

    it('delivers through a server without AUTH', async () => {
      await admin.notification.updateStrategy({
        strategyId: STRATEGY,
        enabled: true,
        config: configFor(plain.port),
        layoutConfig,
      });
      const user = await newUser();
      const { deliveries } = await sendTo(user.id);
      expect(deliveries.map((delivery) => delivery.status)).toEqual(['sent']);
      const [message] = mailTo(plain, user.email);
      expect(message?.mail.subject).toBe('Checkout is down');
      expect(message?.user).toBeUndefined();
    });

    it('delivers through AUTH over STARTTLS: subject, both parts, the layout, the button and the unsubscribe headers', async () => {
      const configured = await admin.notification.updateStrategy({
        strategyId: STRATEGY,
        config: { ...configFor(guarded.port), username: credentials.user, password: PASSWORD },
      });
      expect(configured).toMatchObject({
        configured: true,
        configSecrets: { username: true, password: true },
      });
      expect(JSON.stringify(configured)).not.toContain(PASSWORD);
      const user = await newUser();
      const { deliveries } = await sendTo(user.id);
      expect(deliveries.map((delivery) => delivery.status)).toEqual(['sent']);

      const [message] = mailTo(guarded, user.email);
      expect(message).toMatchObject({ secure: true, user: credentials.user });
      const { mail } = message!;
      expect(mail.subject).toBe('Checkout is down');
      expect(mail.from?.value).toEqual([
        { address: 'alerts@status.example', name: 'Example status' },
      ]);
      expect(mail.text).toContain('Since 12:00 the checkout answers');
      expect(mail.text).toContain('http://localhost:3000/incidents/7');
      const html = mail.html || '';
      expect(html).toContain('<strong>12:00</strong>');
      expect(html).toMatch(/<img[^>]+src="https:\/\/cdn\.example\/brand\/logo\.png"/);
      expect(html).toMatch(
        /<a[^>]+href="http:\/\/localhost:3000\/incidents\/7"[^>]*background-color: #abcdef[^>]*>\s*Open the incident\s*<\/a>/,
      );
      // A critical message: the header is red; the brand's accent colours the button.
      expect(html).toMatch(/class="header"[^>]*background-color: #b91c1c/);
      expect(html).toContain('Sent by Example Ops');

      const headers = unsubscribeHeadersOf(mail);
      expect(headers.post).toBe('List-Unsubscribe=One-Click');
      expect(headers.url?.startsWith(`${testEnv.BASE_URL}${UNSUBSCRIBE_PATH}/`)).toBe(true);
    });

    it('retries a 451 answer and then is sent', async () => {
      const user = await newUser();
      guarded.answerNextData(451, '4.7.1 Greylisted, please try again later');
      const { deliveries } = await sendTo(user.id);
      const [delivery] = deliveries;
      expect(delivery).toMatchObject({ status: 'sent', attempts: 2 });
      expect(delivery!.attemptLog.map((attempt) => attempt.outcome)).toEqual(['retry', 'sent']);
      expect(delivery!.attemptLog[0]!.error).toContain('451 4.7.1 Greylisted');
      expect(mailTo(guarded, user.email)).toHaveLength(1);
    });

    it('unsubscribes with the one-click link of the mail: the channel is off', async () => {
      const user = await newUser();
      await sendTo(user.id);
      const url = unsubscribeHeadersOf(mailTo(guarded, user.email)[0]!.mail).url!;
      const answer = await unsubscribe(new URL(url).pathname);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('text/plain');
      expect(await answer.text()).toContain('Unsubscribed');

      const after = await sender.notification.sendExternal({
        userIds: [user.id],
        strategyId: STRATEGY,
        notification,
      });
      expect(after.deliveries).toEqual([
        expect.objectContaining({ status: 'skipped', skipReason: 'Channel disabled by the user' }),
      ]);
    });
    it('answers a GET of the link (a person clicking it) with the frontend page, switching nothing off', async () => {
      const user = await newUser();
      await sendTo(user.id);
      const path = new URL(unsubscribeHeadersOf(mailTo(guarded, user.email)[0]!.mail).url!)
        .pathname;
      const token = path.slice(path.lastIndexOf('/') + 1);
      const answer = await server.request(path);
      expect(answer.status).toBe(302);
      const page = new URL(answer.headers.get('location')!);
      expect(`${page.origin}${page.pathname}`).toBe(
        `${testEnv.FRONTEND_URL}/settings/notifications`,
      );
      expect(page.searchParams.get('unsubscribe')).toBe(token);
      // Link scanners open links with GET: only the POST of the page switches the channel off.
      const { deliveries } = await sendTo(user.id);
      expect(deliveries.map((delivery) => delivery.status)).toEqual(['sent']);

      const forged = await server.request(`${UNSUBSCRIBE_PATH}/not-a-token`);
      expect(forged.status).toBe(302);
      expect(new URL(forged.headers.get('location')!).searchParams.get('unsubscribe')).toBe(
        'invalid',
      );
      // The token is a credential for that channel: the access log shows `:token` instead.
      await unsubscribe(path);
      expect(server.logLines.join('\n')).not.toContain(token);
    });
  });

  describe('errors', () => {
    it('fails at once when the server rejects the recipient with 550, the reply in the log', async () => {
      const user = await newUser();
      guarded.rejectRecipient(user.email);
      const { deliveries } = await sendTo(user.id);
      const [delivery] = deliveries;
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
      expect(delivery!.lastError).toContain(
        `answered 550 5.1.1 <${user.email}>: Recipient address rejected`,
      );
      expect(delivery!.attemptLog).toHaveLength(1);
      expect(mailTo(guarded, user.email)).toHaveLength(0);
    });
  });

  describe('security', () => {
    it('refuses a forged, an altered and an expired unsubscribe token, changing nothing', async () => {
      const user = await newUser();
      const claim = { userId: user.id, strategyId: STRATEGY };
      const forged = signUnsubscribeToken(Keyring.ephemeral(), {
        ...claim,
        expiresAt: new Date(Date.now() + 86_400_000),
      });
      const expired = signUnsubscribeToken(keyring, {
        ...claim,
        expiresAt: new Date(Date.now() - 1_000),
      });
      const other = await newUser();
      const valid = signUnsubscribeToken(keyring, {
        userId: other.id,
        strategyId: STRATEGY,
        expiresAt: new Date(Date.now() + 86_400_000),
      });
      // The payload of the other user's valid token, now naming this user: the MAC no longer fits.
      const [payload, mac] = valid.split('.') as [string, string];
      const renamed = Buffer.from(payload, 'base64url').toString('utf8').replace(other.id, user.id);
      const altered = `${Buffer.from(renamed).toString('base64url')}.${mac}`;

      for (const token of [forged, expired, altered, 'not-a-token']) {
        const answer = await unsubscribe(`${UNSUBSCRIBE_PATH}/${token}`);
        expect({ token, status: answer.status }).toEqual({ token, status: 400 });
      }
      const rows = await server.database.db.execute(
        sql`select 1 from notification.preferences where user_id = ${user.id}::uuid`,
      );
      expect(Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows).toHaveLength(0);
      const { deliveries } = await sendTo(user.id);
      expect(deliveries.map((delivery) => delivery.status)).toEqual(['sent']);
    });

    it('never answers or logs the SMTP password', async () => {
      const listed = await server.request('/api/notification/', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(await server.adminSession()),
        },
        body: JSON.stringify({ getStrategies: {} }),
      });
      const text = await listed.text();
      expect(listed.status).toBe(200);
      expect(text).toContain(STRATEGY);
      expect(text).not.toContain(PASSWORD);

      const stored = await server.database.db.execute(
        sql`select config::text as config from notification.strategy_settings where strategy_id = ${STRATEGY}`,
      );
      const raw = JSON.stringify(stored);
      expect(raw).toContain('enc:v1:');
      expect(raw).not.toContain(PASSWORD);

      const logs = server.logLines.join('\n');
      expect(server.logLines.length).toBeGreaterThan(0);
      for (const form of [
        PASSWORD,
        Buffer.from(PASSWORD).toString('base64'),
        Buffer.from(`\u0000${credentials.user}\u0000${PASSWORD}`).toString('base64'),
      ]) {
        expect(logs).not.toContain(form);
      }
    });
  });
});
