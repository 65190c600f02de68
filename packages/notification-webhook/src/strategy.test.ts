import { createEgress } from '@checkline/net';
import { fixedResolver } from '@checkline/net/testing';
import type { StrategySendContext } from '@checkline/notification-node';
import type { LoopbackServer } from '@checkline/notification-node/testing';
import { startLoopbackServer } from '@checkline/notification-node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookConfig, WebhookUserConfig } from './settings.ts';
import { verifyWebhookSignature } from './signature.ts';
import { webhookStrategy } from './strategy.ts';

/**
 * The strategy's `send` and `validateConfig` on their own, against loopback receivers: how each
 * answer is read, and what is refused before any connection.
 */
const SECRET = 'user-signing-secret-0123';

let receiver: LoopbackServer;
let elsewhere: LoopbackServer;

beforeAll(async () => {
  elsewhere = await startLoopbackServer((_request, response) => {
    response.end('followed');
  });
  receiver = await startLoopbackServer((request, response) => {
    switch (request.url) {
      case '/busy':
        response.writeHead(429, { 'retry-after': '120' }).end('slow down');
        return;
      case '/down':
        response.writeHead(503).end();
        return;
      case '/gone':
        response.writeHead(410).end('no such hook');
        return;
      case '/moved':
        response.writeHead(307, { location: `${elsewhere.url}/landing` }).end();
        return;
      default:
        response.writeHead(204).end();
    }
  });
});
afterAll(async () => {
  await Promise.all([receiver.close(), elsewhere.close()]);
});

const loopbackAllowed = webhookStrategy(createEgress({ allowPrivate: true }));
const strict = webhookStrategy(
  createEgress({ resolve: fixedResolver({ 'loop.invalid': ['127.0.0.1'] }) }),
);

function context(
  config: WebhookConfig,
  userConfig?: WebhookUserConfig,
): StrategySendContext<WebhookConfig, unknown, WebhookUserConfig> {
  return {
    contact: userConfig?.url ?? config.url ?? '',
    notification: { title: 'Checkout is down', type: 'healthcheck.status_changed' },
    delivery: {
      id: 'delivery-1',
      userId: 'user-1',
      strategyId: 'notification-webhook.webhook',
      createdAt: new Date('2026-11-23T12:00:00Z'),
      transactional: false,
    },
    strategyConfig: config,
    ...(userConfig && { userConfig }),
  };
}

const userAt = (path: string) =>
  context({}, { url: `${receiver.url}${path}`, signingSecret: SECRET });

describe('webhook strategy', () => {
  describe('works', () => {
    it('counts a 2xx as sent, the request signed with the secret of the URL used', async () => {
      const before = receiver.requests.length;
      expect(await loopbackAllowed.send(userAt('/ok'))).toEqual({ success: true });
      const request = receiver.requests[before]!;
      expect(request.method).toBe('POST');
      expect(
        verifyWebhookSignature(
          SECRET,
          String(request.headers['x-checkline-signature']),
          request.body,
        ),
      ).toBe(true);
      expect(JSON.parse(request.body)).toEqual({
        version: 1,
        id: 'delivery-1',
        type: 'healthcheck.status_changed',
        title: 'Checkout is down',
        description: '',
        text: '',
        importance: 'info',
        action: null,
        timestamp: '2026-11-23T12:00:00.000Z',
        facts: null,
      });
    });

    it('uses the administrator URL and secret for a user without settings', async () => {
      const before = receiver.requests.length;
      const adminSecret = 'admin-signing-secret-987';
      const answer = await loopbackAllowed.send(
        context({ url: `${receiver.url}/admin`, signingSecret: adminSecret }),
      );
      expect(answer).toEqual({ success: true });
      const request = receiver.requests[before]!;
      expect(request.url).toBe('/admin');
      const header = String(request.headers['x-checkline-signature']);
      expect(verifyWebhookSignature(adminSecret, header, request.body)).toBe(true);
      expect(verifyWebhookSignature(SECRET, header, request.body)).toBe(false);
    });
  });

  describe('reads the answer', () => {
    it('retries a 429 no sooner than Retry-After, and a 5xx', async () => {
      expect(await loopbackAllowed.send(userAt('/busy'))).toEqual({
        success: false,
        error: 'Webhook answered HTTP 429: slow down',
        retryAfterMs: 120_000,
      });
      expect(await loopbackAllowed.send(userAt('/down'))).toEqual({
        success: false,
        error: 'Webhook answered HTTP 503',
      });
    });

    it('fails another 4xx for good', async () => {
      expect(await loopbackAllowed.send(userAt('/gone'))).toEqual({
        success: false,
        error: 'Webhook answered HTTP 410: no such hook',
        permanent: true,
      });
    });

    it('fails a redirect for good without following it', async () => {
      expect(await loopbackAllowed.send(userAt('/moved'))).toEqual({
        success: false,
        error: 'Webhook answered HTTP 307: redirects are not followed',
        permanent: true,
      });
      expect(elsewhere.connections).toBe(0);
    });

    it('retries when the receiver cannot be reached', async () => {
      const closed = await startLoopbackServer(() => undefined);
      const url = `${closed.url}/hook`;
      await closed.close();
      const answer = await loopbackAllowed.send(context({}, { url, signingSecret: SECRET }));
      expect(answer).toMatchObject({ success: false });
      expect(answer.permanent).toBeUndefined();
      expect(answer.error).toMatch(/^Webhook could not be reached: ECONNREFUSED/);
    });

    it('fails for good when neither the user nor the administrator set a URL', async () => {
      expect(await loopbackAllowed.send(context({}))).toEqual({
        success: false,
        error: 'No webhook URL is configured',
        permanent: true,
      });
    });
  });

  describe('refuses private destinations without WEBHOOK_ALLOW_PRIVATE, before connecting', () => {
    it.each([
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address'],
      [
        'http://10.0.0.1/hook',
        '10.0.0.1 is a private address (WEBHOOK_ALLOW_PRIVATE can allow it)',
      ],
    ])('refuses %s at send, for good', async (url, message) => {
      const answer = await strict.send(context({}, { url, signingSecret: SECRET }));
      expect(answer).toEqual({
        success: false,
        error: `Target refused: ${message}`,
        permanent: true,
      });
    });

    it('refuses a name resolving to 127.0.0.1 at send and on save, opening no connection', async () => {
      const before = receiver.connections;
      const url = `http://loop.invalid:${receiver.port}/hook`;
      const answer = await strict.send(context({}, { url, signingSecret: SECRET }));
      const refusal =
        'Target refused: loop.invalid resolves to 127.0.0.1, which is a loopback address (WEBHOOK_ALLOW_PRIVATE can allow it)';
      expect(answer).toEqual({ success: false, error: refusal, permanent: true });
      await expect(
        strict.validateConfig!({ layer: 'userConfig', value: { url, signingSecret: SECRET } }),
      ).resolves.toEqual([{ path: 'url', message: refusal }]);
      expect(receiver.connections).toBe(before);
    });

    it('accepts on save a public name, and one that does not resolve yet', async () => {
      const egress = createEgress({
        resolve: fixedResolver({ 'hooks.example.invalid': ['93.184.215.14'] }),
      });
      const check = webhookStrategy(egress).validateConfig!;
      await expect(
        check({ layer: 'config', value: { url: 'https://hooks.example.invalid/x' } }),
      ).resolves.toEqual([]);
      await expect(
        check({ layer: 'config', value: { url: 'https://not-yet.invalid/x' } }),
      ).resolves.toEqual([]);
      await expect(check({ layer: 'config', value: {} })).resolves.toEqual([]);
    });
  });
});
