import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHealthcheckPlugin } from '@checkline/healthcheck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * The health-check target policy and the run budget through HTTP, configured as an operator
 * would: only 127.0.0.1 allowed beyond the defaults, two runs a minute per caller. The only
 * target that is ever dialled is a loopback server this file starts.
 */
let server: TestServer;
let target: Server;
let targetUrl: string;
let targetHits = 0;
let session: Record<string, string>;
let systemId: string;

beforeAll(async () => {
  target = createServer((_request, response) => {
    targetHits += 1;
    response.end('ok');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/ok`;
  // No background scheduler: a new check is due at once, and its scheduled run would hit the
  // target too; this file counts the hits of runHealthCheck alone.
  const plugins = createPlugins({
    ...testEnv,
    CHECK_TARGETS_ALLOW: ['127.0.0.1'],
    CHECK_RUN_RATE_LIMIT: 2,
  }).map((plugin) =>
    plugin.id === 'healthcheck'
      ? createHealthcheckPlugin({
          targets: { allow: ['127.0.0.1'], deny: [] },
          runRateLimit: { points: 2, durationSeconds: 60 },
          scheduler: { autoStart: false },
        })
      : plugin,
  );
  server = await createTestServer({ plugins });
  session = await server.adminSession();
});
afterAll(async () => {
  await server.close();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

const asAdmin = (pluginId: string, body: unknown) =>
  server.request(`/api/${pluginId}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...session },
    body: JSON.stringify(body),
  });

const restAsAdmin = (procedure: string, body: unknown) =>
  server.request(`/rest/healthcheck/${procedure}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...session },
    body: JSON.stringify(body),
  });

describe('health-check targets over HTTP', () => {
  beforeAll(async () => {
    const created = await asAdmin('catalog', { createSystem: { name: 'targets-http' } });
    systemId = (await created.json()).createSystem.id;
  });

  it.each([
    [
      'http',
      { url: 'http://169.254.169.254/latest/meta-data/' },
      'config.url',
      /cloud metadata address/,
    ],
    ['http', { url: 'http://metadata.google.internal/' }, 'config.url', /cloud metadata host name/],
    ['http', { url: 'http://[::ffff:a9fe:a9fe]/' }, 'config.url', /cloud metadata address/],
    ['http', { url: 'http://[::1]:8080/' }, 'config.url', /::1 is a loopback/],
    ['http', { url: 'http://localhost:8080/' }, 'config.url', /::1, which is a loopback/],
    ['tcp', { host: '127.0.0.2', port: 5432 }, 'config.host', /127\.0\.0\.2 is a loopback/],
    ['tcp', { host: 'fe80::1', port: 22 }, 'config.host', /link-local/],
  ])('refuses a %s check at %j with BAD_REQUEST naming %s', async (type, config, path, message) => {
    const response = await restAsAdmin('createHealthCheck', {
      systemId,
      name: `refused ${JSON.stringify(config)}`,
      type: `healthcheck.${type}`,
      config,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'BAD_REQUEST',
      issues: [{ path, message: expect.stringMatching(message) }],
    });
  });

  it('refuses an unknown config key, naming it', async () => {
    const response = await asAdmin('healthcheck', {
      createHealthCheck: {
        systemId,
        name: 'typo',
        type: 'healthcheck.http',
        config: { url: targetUrl, expectStatus: [200] },
      },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'BAD_REQUEST',
      procedure: 'createHealthCheck',
      issues: [{ path: 'config.expectStatus', message: 'Unknown key "expectStatus"' }],
    });
  });

  it('runs an allowed target, then answers 429 with Retry-After past the run budget', async () => {
    const created = await restAsAdmin('createHealthCheck', {
      systemId,
      name: 'allowed loopback',
      type: 'healthcheck.http',
      config: { url: targetUrl },
    });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    for (let run = 0; run < 2; run++) {
      const answer = await restAsAdmin('runHealthCheck', { id });
      expect(await answer.json()).toMatchObject({ status: 'pass' });
    }
    const refused = await asAdmin('healthcheck', { runHealthCheck: { id } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(targetHits).toBe(2);
  });
});
