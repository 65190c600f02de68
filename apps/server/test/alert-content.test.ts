import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthContract } from '@checkline/auth/contract';
import { createEgress } from '@checkline/net';
import type { NotificationContract } from '@checkline/notification/contract';
import type { AlertFacts } from '@checkline/notification-node';
import type { LoopbackServer } from '@checkline/notification-node/testing';
import { loopbackEgress, startLoopbackServer } from '@checkline/notification-node/testing';
import type { ReceivedMail, SmtpTestServer } from '@checkline/notification-smtp/testing';
import { startSmtpTestServer } from '@checkline/notification-smtp/testing';
import type { WebhookPayload } from '@checkline/notification-webhook';
import {
  createWebhookChannelPlugin,
  verifyWebhookSignature,
} from '@checkline/notification-webhook';
import type { ContractRouterClient } from '@orpc/contract';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enableSmtp,
  enableWebhook,
  eventually as eventuallyWithin,
  httpCheckedSystem,
  restCall,
  signedInUser,
} from './support/alert-channels.ts';
import { contractClient } from './support/contract-client.ts';
import { monitoringRules } from './support/team-world.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 22 item 1 over loopback: a subscriber's e-mail (a real SMTP server) and webhook (a real
 * receiver) say which check failed and why, how long the outage lasted, and what an incident
 * update said; every webhook body validates against the JSON Schema the server's own OpenAPI
 * document publishes.
 */
type Contracts = { auth: AuthContract; notification: NotificationContract };
type Client = ContractRouterClient<Contracts>;

const SIGNING_SECRET = 'alert-content-signing-secret';
const PASSWORD = 'a sound enough password';
const WAIT_MS = 20_000;

let server: TestServer;
let smtp: SmtpTestServer;
let receiver: LoopbackServer;
let admin: Client;
let adminHeaders: Record<string, string>;
let watcher: { id: string; email: string; client: Client };
let payloadValidator: ValidateFunction | undefined;

let targetStatus = 500;
const target = createServer((_request, response) => {
  response.writeHead(targetStatus).end('target says hello');
});
let targetUrl: string;

const rest = (path: string, body: unknown, method?: string) =>
  restCall(server, adminHeaders, path, body, method);

/** Waits (bounded) until `found` answers something. */
const eventually = <T>(what: string, found: () => T | undefined) =>
  eventuallyWithin(what, found, WAIT_MS);

/** The watcher's mail titled `subject`, once it has arrived. */
const mailTitled = (subject: string): Promise<ReceivedMail> =>
  eventually(`mail "${subject}"`, () =>
    smtp.received.find(
      (mail) => mail.recipients.includes(watcher.email) && mail.mail.subject === subject,
    ),
  );

/** The webhook body of type `type` about `id` (a system or incident), once it has arrived. */
const webhookAbout = (type: string, matches: (facts: AlertFacts) => boolean) =>
  eventually(`webhook ${type}`, () => {
    for (const request of receiver.requests) {
      const payload = JSON.parse(request.body) as WebhookPayload;
      if (payload.type === type && payload.facts && matches(payload.facts)) {
        return { payload, request };
      }
    }
    return undefined;
  });

/** Checks `payload` against the schema the server's OpenAPI document publishes (fetched once). */
async function expectValidPayload(payload: WebhookPayload) {
  if (!payloadValidator) {
    const response = await server.request('/api/openapi.json', { headers: adminHeaders });
    const document = (await response.json()) as {
      components: { schemas: Record<string, object | undefined> };
    };
    const schema = document.components.schemas['WebhookPayload'];
    expect(schema, 'the OpenAPI document publishes WebhookPayload').toBeDefined();
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    payloadValidator = ajv.compile(schema!);
  }
  const valid = payloadValidator(payload);
  expect(valid, JSON.stringify(payloadValidator.errors)).toBe(true);
}

/** A system the watcher subscribes to, with an http check named `Checkout ping`. */
async function watchedSystem(name: string) {
  const system = await httpCheckedSystem(rest, {
    name,
    url: targetUrl,
    checkName: 'Checkout ping',
  });
  await watcher.client.notification.createSubscription({ systemId: system.systemId });
  return system;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
  smtp = await startSmtpTestServer();
  receiver = await startLoopbackServer((_request, response) => {
    response.writeHead(200).end('ok');
  });
  server = await createTestServer({
    // The tests run their checks themselves; a scheduled run beside them would change the status.
    scheduledChecks: false,
    extraPlugins: [createWebhookChannelPlugin({ egress: createEgress({ allowPrivate: true }) })],
    smtp: { egress: loopbackEgress() },
    notification: { delivery: { maxAttempts: 3, retryDelaysMs: [5, 20] } },
  });
  const { cookie } = await server.adminSession();
  adminHeaders = { cookie, origin: testEnv.BASE_URL };
  admin = contractClient<Contracts>(() => server, adminHeaders);
  await enableSmtp(admin, smtp.port);
  await enableWebhook(admin, `${receiver.url}/alerts`, SIGNING_SECRET);
  watcher = await signedInUser<Contracts>(server, admin, {
    email: 'watcher@example.com',
    password: PASSWORD,
    roleName: 'alert-watchers',
    rules: [
      ...monitoringRules,
      'notification-smtp.strategy.smtp.use',
      'notification-webhook.strategy.webhook.use',
    ],
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
  await receiver?.close();
  await new Promise((resolve) => target.close(resolve));
});

describe('alert content over loopback', () => {
  describe('works', () => {
    it('names the failing check and quotes its reason in the e-mail and the webhook; the recovery states the outage length', async () => {
      const { systemId, checkId } = await watchedSystem('Checkout API');
      targetStatus = 500;
      await rest('healthcheck/runHealthCheck', { id: checkId });

      const down = await mailTitled('Now unhealthy: Checkout API');
      expect(down.mail.text).not.toContain('It had been');
      expect(down.mail.text).toContain(
        'Checkout ping (healthcheck.http): Expected status 2xx, got 500',
      );
      expect(down.mail.html).toContain('Checkout ping');
      expect(down.mail.html).toContain('Expected status 2xx, got 500');
      const alert = await webhookAbout(
        'healthcheck.status_changed',
        (facts) =>
          facts.kind === 'healthcheck.status_changed' &&
          facts.system.id === systemId &&
          facts.current === 'unhealthy',
      );
      expect(
        verifyWebhookSignature(
          SIGNING_SECRET,
          String(alert.request.headers['x-checkline-signature']),
          alert.request.body,
        ),
      ).toBe(true);
      expect(alert.payload.version).toBe(1);
      expect(alert.payload.text).toContain(
        'Checkout ping (healthcheck.http): Expected status 2xx, got 500',
      );
      expect(alert.payload.facts).toMatchObject({
        system: { id: systemId, name: 'Checkout API' },
        previous: 'unknown',
        current: 'unhealthy',
        // The system's first status: nothing before it to measure.
        previousSince: null,
        previousDurationMs: null,
        failingChecks: [
          {
            id: checkId,
            name: 'Checkout ping',
            type: 'healthcheck.http',
            status: 'fail',
            message: 'Expected status 2xx, got 500',
          },
        ],
      });
      const downFacts = alert.payload.facts as Extract<
        AlertFacts,
        { kind: 'healthcheck.status_changed' }
      >;
      expect(downFacts.failingChecks[0]!.latencyMs).toBeGreaterThanOrEqual(0);
      await expectValidPayload(alert.payload);
      // The schema does hold payloads to their shape.
      expect(payloadValidator!({ ...alert.payload, version: 2 })).toBe(false);
      expect(
        payloadValidator!({ ...alert.payload, facts: { ...downFacts, failingChecks: [{}] } }),
      ).toBe(false);

      targetStatus = 200;
      await rest('healthcheck/runHealthCheck', { id: checkId });
      const up = await mailTitled('Now healthy: Checkout API');
      const recovery = await webhookAbout(
        'healthcheck.status_changed',
        (facts) =>
          facts.kind === 'healthcheck.status_changed' &&
          facts.system.id === systemId &&
          facts.current === 'healthy',
      );
      const upFacts = recovery.payload.facts as typeof downFacts;
      // The unhealthy status began when the first run recorded it and ended with the second.
      expect(upFacts.previous).toBe('unhealthy');
      expect(upFacts.previousSince).toBe(downFacts.changedAt);
      expect(upFacts.previousDurationMs).toBe(
        Date.parse(upFacts.changedAt) - Date.parse(downFacts.changedAt),
      );
      expect(upFacts.failingChecks).toEqual([]);
      expect(up.mail.text).toMatch(/It had been unhealthy for \d+ (ms|s)/);
      expect(recovery.payload.text).toMatch(/It had been unhealthy for \d+ (ms|s)/);
      await expectValidPayload(recovery.payload);
    });

    it("brings an incident update's message to the subscriber's inbox, e-mail and webhook", async () => {
      const { systemId } = await watchedSystem('Ledger DB');
      const incident = await rest('incident/createIncident', {
        title: 'Card payments fail',
        severity: 'major',
        description: 'Some card payments are declined.',
        systemIds: [systemId],
      });
      const opened = await mailTitled('Incident: Card payments fail');
      expect(opened.mail.text).toContain('Some card payments are declined.');

      await rest(
        'incident/updateIncident',
        {
          id: incident.id,
          status: 'identified',
          message: 'Root cause: expired DB credentials',
        },
        'PATCH',
      );
      const updated = await mailTitled('Incident updated: Card payments fail');
      expect(updated.mail.text).toContain('Root cause: expired DB credentials');
      expect(updated.mail.html).toContain('Root cause: expired DB credentials');
      const hook = await webhookAbout(
        'incident.updated',
        (facts) => facts.kind === 'incident.updated' && facts.incident.id === incident.id,
      );
      expect(hook.payload.facts).toMatchObject({
        incident: {
          id: incident.id,
          title: 'Card payments fail',
          description: 'Some card payments are declined.',
          status: 'identified',
          severity: 'major',
          latestUpdate: { message: 'Root cause: expired DB credentials' },
        },
        systems: [{ id: systemId, name: 'Ledger DB' }],
      });
      await expectValidPayload(hook.payload);

      // The inbox row was written with the deliveries, before the e-mail went out.
      const { notifications } = await watcher.client.notification.getNotifications({});
      const row = notifications.find(
        (notification) => notification.title === 'Incident updated: Card payments fail',
      );
      expect(row?.body).toContain('Root cause\\: expired DB credentials');
    });
  });
});
