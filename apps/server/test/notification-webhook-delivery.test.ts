import { testPrincipal } from '@checkline/core/testing';
import { createEgress } from '@checkline/net';
import { fixedResolver } from '@checkline/net/testing';
import { notificationAccess } from '@checkline/notification';
import type { DeliveryProcess } from '@checkline/notification/testing';
import {
  createUsers,
  qualified,
  startDeliveryFixture,
  useRule,
} from '@checkline/notification/testing';
import type { LoopbackServer } from '@checkline/notification-node/testing';
import { startLoopbackServer } from '@checkline/notification-node/testing';
import { verifyWebhookSignature, webhookStrategy } from '@checkline/notification-webhook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The webhook channel inside the notification platform: settings saved through its procedures
 * (secrets encrypted, checked on save), notifications queued with sendExternal and sent by the
 * delivery worker to loopback receivers. Two channels: one allowed to reach private addresses
 * (for the receivers), one not (the default).
 */
const USER_SECRET = 'user-signing-secret-0123';
const ADMIN_SECRET = 'admin-signing-secret-4567';
const WEBHOOK = qualified('webhook');

/** Names resolve through a table the tests change (a name may change its address). */
const table: Record<string, string[]> = {};
const resolve = fixedResolver(table);

let receiver: LoopbackServer;
let elsewhere: LoopbackServer;
let fixture: Awaited<ReturnType<typeof startDeliveryFixture>>;
let strictFixture: Awaited<ReturnType<typeof startDeliveryFixture>>;
const flakyHits = new Map<string, number>();

beforeAll(async () => {
  elsewhere = await startLoopbackServer((_request, response) => {
    response.end('followed');
  });
  receiver = await startLoopbackServer((request, response) => {
    if (request.url.startsWith('/flaky')) {
      const hits = (flakyHits.get(request.url) ?? 0) + 1;
      flakyHits.set(request.url, hits);
      response.writeHead(hits === 1 ? 500 : 200).end(hits === 1 ? 'database restarting' : 'ok');
      return;
    }
    if (request.url === '/moved') {
      response.writeHead(302, { location: `${elsewhere.url}/landing` }).end();
      return;
    }
    response.writeHead(200).end('ok');
  });
  const delivery = { maxAttempts: 3, retryDelaysMs: [5, 10, 20] };
  fixture = await startDeliveryFixture(
    [webhookStrategy(createEgress({ allowPrivate: true, resolve }))],
    { delivery },
  );
  strictFixture = await startDeliveryFixture([webhookStrategy(createEgress({ resolve }))], {
    delivery,
  });
});
afterAll(async () => {
  await fixture?.close();
  await strictFixture?.close();
  await Promise.all([receiver?.close(), elsewhere?.close()]);
});

const admin = testPrincipal([notificationAccess.manageStrategies]);
const sender = testPrincipal([notificationAccess.send]);
let people = 0;

async function newUser(server: DeliveryProcess, db: typeof fixture.database.db) {
  const [id] = await createUsers(db, [`person-${++people}@example.com`], [useRule('webhook')]);
  const principal = testPrincipal([useRule('webhook')], { kind: 'user', id: id! });
  return { id: id!, client: server.notification(principal) };
}

const notification = {
  title: 'Checkout is down',
  description:
    'Since **12:00**: `connection refused`, see [the runbook](https://runbooks.example/checkout)',
  importance: 'critical' as const,
  type: 'healthcheck.status_changed',
  action: { label: 'Open the system', url: '/systems/42' },
};

async function sendTo(userId: string, server = fixture.server) {
  const answer = await server
    .notification(sender)
    .sendExternal({ userIds: [userId], strategyId: WEBHOOK, notification });
  await server.worker().drain();
  const { deliveries } = await server
    .notification(admin)
    .getDeliveries({ notificationId: answer.notificationId });
  return deliveries[0]!;
}

const requestsTo = (path: string) => receiver.requests.filter((request) => request.url === path);

describe('webhook channel', () => {
  describe('works', () => {
    it('POSTs the notification as signed JSON to the URL the user set', async () => {
      const user = await newUser(fixture.server, fixture.database.db);
      await user.client.updateMyChannel({
        strategyId: WEBHOOK,
        config: { url: `${receiver.url}/own`, signingSecret: USER_SECRET },
      });
      const delivery = await sendTo(user.id);
      expect(delivery.status).toBe('sent');
      const [request] = requestsTo('/own');
      expect(request).toMatchObject({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-checkline-delivery': delivery.id },
      });
      const signature = String(request!.headers['x-checkline-signature']);
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhookSignature(USER_SECRET, signature, request!.body)).toBe(true);
      expect(verifyWebhookSignature(ADMIN_SECRET, signature, request!.body)).toBe(false);
      const payload = JSON.parse(request!.body) as Record<string, unknown>;
      expect(payload).toEqual({
        version: 1,
        id: delivery.id,
        type: 'healthcheck.status_changed',
        title: 'Checkout is down',
        description:
          'Since **12:00**: `connection refused`, see [the runbook](https://runbooks.example/checkout)',
        text: 'Since 12:00: connection refused, see the runbook (https://runbooks.example/checkout)',
        importance: 'critical',
        action: { label: 'Open the system', url: 'http://localhost:3000/systems/42' },
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
        // Sent through the API, not a subscription alert: no facts.
        facts: null,
      });
    });

    it("reaches a user without settings at the administrator's URL, signed with its secret", async () => {
      table['hooks.invalid'] = ['127.0.0.1'];
      await fixture.server.notification(admin).updateStrategy({
        strategyId: WEBHOOK,
        enabled: true,
        config: {
          url: `http://hooks.invalid:${receiver.port}/shared`,
          signingSecret: ADMIN_SECRET,
        },
      });
      const user = await newUser(fixture.server, fixture.database.db);
      expect((await sendTo(user.id)).status).toBe('sent');
      const [request] = requestsTo('/shared');
      expect(request!.headers.host).toBe(`hooks.invalid:${receiver.port}`);
      const signature = String(request!.headers['x-checkline-signature']);
      expect(verifyWebhookSignature(ADMIN_SECRET, signature, request!.body)).toBe(true);
    });

    it('retries a 500 and is sent on the 200 that follows, with the same id', async () => {
      const user = await newUser(fixture.server, fixture.database.db);
      await user.client.updateMyChannel({
        strategyId: WEBHOOK,
        config: { url: `${receiver.url}/flaky-1`, signingSecret: USER_SECRET },
      });
      const delivery = await sendTo(user.id);
      expect(delivery).toMatchObject({ status: 'sent', attempts: 2 });
      expect(delivery.attemptLog.map((attempt) => [attempt.outcome, attempt.error])).toEqual([
        ['retry', 'Webhook answered HTTP 500: database restarting'],
        ['sent', undefined],
      ]);
      const ids = requestsTo('/flaky-1').map(
        (request) => (JSON.parse(request.body) as { id: string }).id,
      );
      expect(ids).toEqual([delivery.id, delivery.id]);
    });
  });

  describe('errors', () => {
    it('does not follow a redirect: failed at once, the redirect target receiving nothing', async () => {
      const user = await newUser(fixture.server, fixture.database.db);
      await user.client.updateMyChannel({
        strategyId: WEBHOOK,
        config: { url: `${receiver.url}/moved`, signingSecret: USER_SECRET },
      });
      const delivery = await sendTo(user.id);
      expect(delivery).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastError: 'Webhook answered HTTP 302: redirects are not followed',
      });
      expect(elsewhere.requests).toEqual([]);
      expect(elsewhere.connections).toBe(0);
    });

    it('refuses settings the schema refuses', async () => {
      const user = await newUser(fixture.server, fixture.database.db);
      await expect(
        user.client.updateMyChannel({
          strategyId: WEBHOOK,
          config: { url: 'ftp://files.example/x', signingSecret: 'short' },
        }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: {
          issues: [
            { path: 'config.url', message: 'Must be an http:// or https:// URL' },
            { path: 'config.signingSecret', message: 'At least 16 characters' },
          ],
        },
      });
      await expect(
        fixture.server.notification(admin).updateStrategy({
          strategyId: WEBHOOK,
          config: { url: 'https://user:pass@hooks.example/x', signingSecret: null },
        }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: {
          issues: [
            { path: 'config.url', message: expect.stringMatching(/^Must not carry credentials/) },
            {
              path: 'config.signingSecret',
              message: 'Required with a URL: every request is signed',
            },
          ],
        },
      });
    });
  });

  describe('security', () => {
    it('never returns a signing secret', async () => {
      const user = await newUser(fixture.server, fixture.database.db);
      const saved = await user.client.updateMyChannel({
        strategyId: WEBHOOK,
        config: { url: `${receiver.url}/own`, signingSecret: USER_SECRET },
      });
      expect(saved).toMatchObject({
        config: { url: `${receiver.url}/own` },
        configSecrets: { signingSecret: true },
      });
      const channels = await user.client.getMyChannels({});
      expect(channels.channels).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ strategyId: WEBHOOK, configSecrets: { signingSecret: true } }),
        ]),
      );
      const strategies = await fixture.server.notification(admin).getStrategies({});
      for (const view of [saved, channels, strategies]) {
        expect(JSON.stringify(view)).not.toContain(USER_SECRET);
        expect(JSON.stringify(view)).not.toContain(ADMIN_SECRET);
      }
    });

    describe('without WEBHOOK_ALLOW_PRIVATE', () => {
      it.each([
        ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address'],
        [
          'http://10.0.0.1/hook',
          '10.0.0.1 is a private address (WEBHOOK_ALLOW_PRIVATE can allow it)',
        ],
        [
          'http://loop.invalid:9/hook',
          'loop.invalid resolves to 127.0.0.1, which is a loopback address (WEBHOOK_ALLOW_PRIVATE can allow it)',
        ],
      ])('refuses to save %s, for the administrator and for a user', async (url, message) => {
        table['loop.invalid'] = ['127.0.0.1'];
        const issue = { path: 'config.url', message: `Target refused: ${message}` };
        await expect(
          strictFixture.server.notification(admin).updateStrategy({
            strategyId: WEBHOOK,
            config: { url, signingSecret: ADMIN_SECRET },
          }),
        ).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { issues: [issue] } });
        const user = await newUser(strictFixture.server, strictFixture.database.db);
        await expect(
          user.client.updateMyChannel({
            strategyId: WEBHOOK,
            config: { url, signingSecret: USER_SECRET },
          }),
        ).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { issues: [issue] } });
      });

      it('checks again before every attempt: a name that now resolves to loopback is refused, unconnected', async () => {
        table['rebind.invalid'] = ['93.184.215.14'];
        const user = await newUser(strictFixture.server, strictFixture.database.db);
        await user.client.updateMyChannel({
          strategyId: WEBHOOK,
          config: {
            url: `http://rebind.invalid:${receiver.port}/hook`,
            signingSecret: USER_SECRET,
          },
        });
        table['rebind.invalid'] = ['127.0.0.1'];
        const connections = receiver.connections;
        const delivery = await sendTo(user.id, strictFixture.server);
        expect(delivery).toMatchObject({
          status: 'failed',
          attempts: 1,
          lastError:
            'Target refused: rebind.invalid resolves to 127.0.0.1, which is a loopback address (WEBHOOK_ALLOW_PRIVATE can allow it)',
        });
        expect(receiver.connections).toBe(connections);
      });
    });
  });
});
