import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthContract } from '@checkline/auth/contract';
import type { CatalogContract } from '@checkline/catalog/contract';
import type { NotificationContract } from '@checkline/notification/contract';
import { createEgress } from '@checkline/net';
import {
  createWebhookChannelPlugin,
  SIGNATURE_HEADER,
  verifyWebhookSignature,
} from '@checkline/notification-webhook';
import type { ContractRouterClient } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookReceiver } from './support/alert-channels.ts';
import {
  enableWebhook,
  eventually,
  httpCheckedSystem,
  restCall,
  startWebhookReceiver,
} from './support/alert-channels.ts';
import { contractClient } from './support/contract-client.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 22 item 4, applications: an integrator's application (API key) sets its own webhook with
 * updateMyChannel, subscribes (or an administrator subscribes it), and hears each event it may
 * read with its own principal as a signed POST to that webhook, never at the administrator's
 * fallback URL. Real server, real HTTP, loopback receivers.
 */
type Contracts = {
  auth: AuthContract;
  catalog: CatalogContract;
  notification: NotificationContract;
};
type Client = ContractRouterClient<Contracts>;

const WEBHOOK = 'notification-webhook.webhook';
const SUBSCRIBE_RULE = 'notification.subscriptions.own';

let server: TestServer;
let adminHeaders: Record<string, string>;
let admin: Client;
/** The administrator's fallback URL: an application must never be sent there. */
let fallback: WebhookReceiver;
const receivers: WebhookReceiver[] = [];
let names = 0;
const unique = (prefix: string) => `${prefix}-${++names}`;

let targetStatus = 200;
const target = createServer((_request, response) => response.writeHead(targetStatus).end());
let targetUrl: string;

const rest = (path: string, body: unknown) => restCall(server, adminHeaders, path, body);

interface Integrator {
  id: string;
  name: string;
  /** The API key, shown once by createApplication. */
  key: string;
  signingSecret: string;
  receiver: WebhookReceiver;
  client: Client;
}

/** A new application holding a role with `rules`, and a loopback receiver of its own. */
async function integrator(
  rules: readonly string[],
  answer?: Parameters<typeof startWebhookReceiver>[0],
): Promise<Integrator> {
  const name = unique('integrator');
  const role = await admin.auth.createRole({ name: `${name}-role`, accessRules: [...rules] });
  const { application, secret } = await admin.auth.createApplication({ name });
  await admin.auth.updateApplication({ id: application.id, roleIds: [role.id] });
  const receiver = await startWebhookReceiver(answer);
  receivers.push(receiver);
  const client = contractClient<Contracts>(() => server, { authorization: `Bearer ${secret}` });
  return {
    id: application.id,
    name,
    key: secret,
    signingSecret: `${name}-signing-secret-0123456789`,
    receiver,
    client,
  };
}

/** The application sets its own webhook, with its key. */
async function setsItsWebhook(app: Integrator) {
  return app.client.notification.updateMyChannel({
    strategyId: WEBHOOK,
    config: { url: app.receiver.url, signingSecret: app.signingSecret },
  });
}

/** A new system `name` with an http check against the target, healthy for now. */
function monitoredSystem(name: string) {
  targetStatus = 200;
  return httpCheckedSystem(rest, { name, url: targetUrl });
}

/** Makes the target fail and runs the check: the system turns unhealthy. */
async function turnUnhealthy(checkId: string) {
  targetStatus = 500;
  await rest('healthcheck/runHealthCheck', { id: checkId });
  await server.checkline.runtime.events.settled();
}

/** Waits until no delivery is pending (every one sent, failed or skipped). */
async function quiet() {
  await server.checkline.runtime.events.settled();
  await eventually('no pending delivery', async () => {
    const { deliveries } = await admin.notification.getDeliveries({ status: 'pending', limit: 1 });
    return deliveries.length === 0 ? true : undefined;
  });
}

/** What reading monitored systems and hearing through the webhook need; nothing more. */
const READ_RULES = [
  'catalog.catalog.read',
  'healthcheck.healthcheck.read',
  'incident.incident.read',
  'maintenance.maintenance.read',
];
const WEBHOOK_USE = 'notification-webhook.strategy.webhook.use';
const reader = [...READ_RULES, WEBHOOK_USE, SUBSCRIBE_RULE];

beforeAll(async () => {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
  fallback = await startWebhookReceiver();
  server = await createTestServer({
    // The tests run their checks themselves; a scheduled run beside them would change the status.
    scheduledChecks: false,
    extraPlugins: [createWebhookChannelPlugin({ egress: createEgress({ allowPrivate: true }) })],
    notification: { delivery: { maxAttempts: 3, retryDelaysMs: [1_000, 1_000] } },
  });
  const { cookie } = await server.adminSession();
  adminHeaders = { cookie, origin: testEnv.BASE_URL };
  admin = contractClient<Contracts>(() => server, adminHeaders);
  await enableWebhook(admin, fallback.url, 'administrator-fallback-secret');
});
afterAll(async () => {
  await server?.close();
  await Promise.all([fallback, ...receivers].map((receiver) => receiver?.close()));
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

describe('subscriptions of applications, delivered to their webhook', () => {
  describe('works', () => {
    it('an application that may read the system gets one signed POST naming it, at its own URL; one that may not gets nothing', async () => {
      const own = await integrator(reader);
      const routed = await integrator(reader);
      // Subscribes to everything, but holds no catalog read rule: the system is not for it.
      const blind = await integrator(reader.filter((rule) => rule !== 'catalog.catalog.read'));
      for (const app of [own, routed, blind]) {
        const channel = await setsItsWebhook(app);
        expect(channel.strategyId).toBe(WEBHOOK);
      }
      const name = unique('Billing API');
      const { systemId, checkId } = await monitoredSystem(name);

      const mine = await own.client.notification.createSubscription({
        systemId,
        events: ['health'],
      });
      expect(mine).toMatchObject({ applicationId: own.id, userId: null, teamId: null, systemId });
      const byAdmin = await admin.notification.createSubscriptionFor({
        applicationId: routed.id,
        systemId,
        events: ['health'],
      });
      expect(byAdmin).toMatchObject({ applicationId: routed.id, userId: null, systemId });
      await blind.client.notification.createSubscription({ events: ['health'] });

      await turnUnhealthy(checkId);
      await quiet();

      for (const app of [own, routed]) {
        expect(app.receiver.received).toHaveLength(1);
        const [post] = app.receiver.received;
        const signature = post!.headers[SIGNATURE_HEADER.toLowerCase()] as string;
        expect(verifyWebhookSignature(app.signingSecret, signature, post!.body)).toBe(true);
        expect(verifyWebhookSignature('administrator-fallback-secret', signature, post!.body)).toBe(
          false,
        );
        expect(post!.payload).toMatchObject({
          version: 1,
          type: 'healthcheck.status_changed',
          title: `Now unhealthy: ${name}`,
          facts: { kind: 'healthcheck.status_changed', system: { id: systemId, name } },
        });
        expect(post!.headers['x-checkline-delivery']).toBe(post!.payload.id);
      }
      expect(blind.receiver.received).toHaveLength(0);
      expect(fallback.received).toHaveLength(0);

      const { deliveries } = await admin.notification.getDeliveries({ limit: 20 });
      const toApps = deliveries.filter((delivery) => delivery.recipientKind === 'application');
      expect(toApps.map((delivery) => delivery.userId).sort()).toEqual([own.id, routed.id].sort());
      expect(toApps.every((delivery) => delivery.status === 'sent')).toBe(true);
      expect(toApps.find((delivery) => delivery.userId === own.id)?.recipient).toBe(
        `${own.name} (application)`,
      );
    });

    it('an application lists, changes and ends its own subscriptions with its key', async () => {
      const app = await integrator(reader);
      const system = await admin.catalog.createSystem({ name: unique('system') });
      const created = await app.client.notification.createSubscription({ systemId: system.id });
      const { subscriptions } = await app.client.notification.getMySubscriptions({});
      expect(subscriptions.map((entry) => entry.id)).toEqual([created.id]);
      await expect(
        app.client.notification.updateSubscription({ id: created.id, events: ['incident'] }),
      ).resolves.toMatchObject({ id: created.id, applicationId: app.id, events: ['incident'] });
      const listed = await admin.notification.getSubscriptions({ applicationId: app.id });
      expect(listed.subscriptions.map((entry) => entry.id)).toEqual([created.id]);
      await expect(app.client.notification.deleteSubscription({ id: created.id })).resolves.toEqual(
        { id: created.id, deleted: true },
      );
    });

    it('deleting the application stops its deliveries: the pending one is skipped with the reason', async () => {
      let hits = 0;
      const doomed = await integrator(reader, () => {
        hits += 1;
        return 503;
      });
      await setsItsWebhook(doomed);
      const name = unique('Search');
      const { systemId, checkId } = await monitoredSystem(name);
      await doomed.client.notification.createSubscription({ systemId, events: ['health'] });

      await turnUnhealthy(checkId);
      await eventually('a first attempt', () => (hits > 0 ? true : undefined));
      await admin.auth.deleteApplication({ id: doomed.id });
      await quiet();

      const { deliveries } = await admin.notification.getDeliveries({ userId: doomed.id });
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({
        recipientKind: 'application',
        status: 'skipped',
        skipReason: 'No such application',
        recipient: null,
      });
      expect(hits).toBe(1);
    });
  });

  describe('rejects bad input', () => {
    it('refuses reminders and escalation for an application, its own or an administrator’s', async () => {
      const app = await integrator(reader);
      const system = await admin.catalog.createSystem({ name: unique('system') });
      await expect(
        app.client.notification.createSubscription({
          systemId: system.id,
          remindEverySeconds: 600,
        }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringContaining('reminders'),
      });
      const oncall = await admin.auth.createUser({
        email: `${unique('oncall')}@example.com`,
        password: 'a sound enough password',
      });
      await expect(
        admin.notification.createSubscriptionFor({
          applicationId: app.id,
          systemId: system.id,
          escalateAfterSeconds: 600,
          escalateToUserId: oncall.id,
        }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    });

    it('an application sets only the webhook: another channel is BAD_REQUEST', async () => {
      const app = await integrator([...reader, 'notification-smtp.strategy.smtp.use']);
      await expect(
        app.client.notification.updateMyChannel({
          strategyId: 'notification-smtp.smtp',
          enabled: false,
        }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: 'Channel notification-smtp.smtp does not reach applications',
      });
    });

    it('an administrator may not route alerts to an application that does not exist', async () => {
      const system = await admin.catalog.createSystem({ name: unique('system') });
      await expect(
        admin.notification.createSubscriptionFor({
          applicationId: '00000000-0000-4000-8000-00000000beef',
          systemId: system.id,
        }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('refuses the wrong caller', () => {
    it('an application without the subscription rule is FORBIDDEN, naming the rule', async () => {
      const app = await integrator([...READ_RULES, WEBHOOK_USE]);
      await expect(app.client.notification.createSubscription({})).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: `Missing access: ${SUBSCRIBE_RULE}`,
      });
    });

    it('an application cannot change another application’s subscription', async () => {
      const [first, second] = [await integrator(reader), await integrator(reader)];
      const system = await admin.catalog.createSystem({ name: unique('system') });
      const theirs = await first.client.notification.createSubscription({ systemId: system.id });
      await expect(
        second.client.notification.deleteSubscription({ id: theirs.id }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('no answer ever carries the key’s secret or the signing secret', async () => {
      const app = await integrator(reader);
      const system = await admin.catalog.createSystem({ name: unique('system') });
      // One keyed call (`POST /api/{plugin}`), its answer as the wire carries it.
      const call = async (headers: Record<string, string>, path: string, input: unknown) => {
        const [plugin, procedure] = path.split('/') as [string, string];
        const response = await server.request(`/api/${plugin}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ [procedure]: input }),
        });
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
        return response.text();
      };
      const asApp = { authorization: `Bearer ${app.key}` };
      const texts = [
        await call(asApp, 'notification/updateMyChannel', {
          strategyId: WEBHOOK,
          config: { url: app.receiver.url, signingSecret: app.signingSecret },
        }),
        await call(asApp, 'notification/getMyChannels', {}),
        await call(asApp, 'notification/createSubscription', { systemId: system.id }),
        await call(asApp, 'notification/getMySubscriptions', {}),
        await call(asApp, 'auth/getMe', {}),
        await call(adminHeaders, 'notification/getSubscriptions', { applicationId: app.id }),
        await call(adminHeaders, 'notification/getDeliveries', {}),
        await call(adminHeaders, 'auth/getApplications', {}),
      ];
      const keySecret = app.key.slice(app.key.lastIndexOf('_') + 1);
      expect(keySecret.length).toBeGreaterThan(16);
      for (const text of texts) {
        expect(text).not.toContain(keySecret);
        expect(text).not.toContain(app.signingSecret);
      }
      expect(texts[1]).toContain(WEBHOOK);
    });
  });
});
