import { randomBytes } from 'node:crypto';
import { defineEvent, enqueueEvent } from '@checkline/core';
import type { createHealthcheckPlugin } from '@checkline/healthcheck';
import type { LoopbackServer } from '@checkline/net/testing';
import { startLoopbackServer } from '@checkline/net/testing';
import { recordingStrategy } from '@checkline/notification/testing';
import type { ContractRouterClient } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitoringContracts } from './support/channel-server.ts';
import { createChannelServer } from './support/channel-server.ts';
import { scrape, type Scrape } from './support/metrics-scrape.ts';
import { createTestServer, testAdmin, type TestServer } from './support/test-server.ts';

/**
 * Issue 25 item 3: `GET /metrics` behind its bearer token, parsed with a Prometheus text-format
 * parser; every family is there, and each moves when its work happens on a real server (real
 * requests, a real check against a loopback target, a real delivery, a real outbox row).
 */
const TOKEN = randomBytes(32).toString('hex');
const CHANNEL = 'metrics-channel';
const STRATEGY = `${CHANNEL}.gated`;

/** The families the issue names, and Node's own (memory, event-loop lag). */
const requiredFamilies = [
  'checkline_http_requests_total',
  'checkline_http_request_duration_seconds',
  'checkline_check_runs_total',
  'checkline_check_late_starts_total',
  'checkline_check_lag_seconds',
  'checkline_check_backlog',
  'checkline_check_backlog_oldest_seconds',
  'checkline_delivery_attempts_total',
  'checkline_delivery_queue_depth',
  'checkline_event_outbox_depth',
  'checkline_event_outbox_oldest_seconds',
  'checkline_db_pool_size',
  'checkline_db_pool_in_use',
  'checkline_db_pool_waiting',
  'checkline_db_pool_acquire_seconds_total',
  'checkline_db_pool_acquires_total',
  'checkline_cache_lookups_total',
  'checkline_cache_invalidations_total',
  'process_resident_memory_bytes',
  'nodejs_heap_size_used_bytes',
  'nodejs_eventloop_lag_seconds',
  'nodejs_eventloop_lag_p99_seconds',
];

let server: TestServer;
let admin: ContractRouterClient<MonitoringContracts>;
let adminUserId: string;
let target: LoopbackServer;
let openGate = () => {};
const gated = recordingStrategy(
  { id: 'gated' },
  () =>
    new Promise((resolve) => {
      openGate = () => resolve({ success: true });
    }),
);

/** An HTTP check of the loopback target, every 30 s. */
const httpCheck = (systemId: string, name: string) =>
  admin.healthcheck.createHealthCheck({
    systemId,
    name,
    type: 'healthcheck.http',
    config: { url: `${target.url}/` },
    intervalSeconds: 30,
    timeoutMs: 2_000,
  });

const scraped = () => scrape(server.request, TOKEN);
/** Scrapes until `ready` holds (bounded: vitest's poll gives up after its timeout). */
async function scrapeUntil(ready: (scrape: Scrape) => boolean): Promise<Scrape> {
  let last: Scrape | undefined;
  await expect
    .poll(
      async () => {
        last = await scraped();
        return ready(last);
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(true);
  return last!;
}

beforeAll(async () => {
  target = await startLoopbackServer((_request, response) => {
    response.end('ok');
  });
  ({ server, admin } = await createChannelServer(CHANNEL, gated.strategy, { metricsToken: TOKEN }));
  const { users } = await admin.auth.getUsers({});
  adminUserId = users.find((user) => user.email === testAdmin.email)!.id;
});
afterAll(async () => {
  openGate();
  await server?.close();
  await target?.close();
});

describe('GET /metrics', () => {
  describe('refuses the wrong caller', () => {
    it.each([
      ['no credentials', {}],
      ['a wrong token', { authorization: `Bearer ${randomBytes(32).toString('hex')}` }],
      ['the token with a character more', { authorization: `Bearer ${TOKEN}x` }],
      ['the token as Basic credentials', { authorization: `Basic ${TOKEN}` }],
      ['an empty bearer', { authorization: 'Bearer ' }],
    ])('answers 401 with a Bearer challenge and no metrics for %s', async (_, headers) => {
      const response = await server.request('/metrics', { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      const body = await response.text();
      expect(body).not.toContain('checkline_');
      expect(body).not.toContain(TOKEN);
    });

    it('does not exist (404) on a server without a token, even for a bearer of any token', async () => {
      const plain = await createTestServer();
      try {
        for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<
          string,
          string
        >[]) {
          const response = await plain.request('/metrics', { headers });
          expect(response.status).toBe(404);
          expect(await response.text()).not.toContain('checkline_');
        }
      } finally {
        await plain.close();
      }
    });
  });

  describe('works', () => {
    it('answers every named family in the text format', async () => {
      const first = await scraped();
      const missing = requiredFamilies.filter((name) => !first.families.has(name));
      expect(missing).toEqual([]);
      expect(first.value('process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(first.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(first.value('checkline_db_pool_size')).toBeGreaterThanOrEqual(1);
    });

    it('counts requests by surface, plugin, procedure and status, with their latency', async () => {
      const before = await scraped();
      const systems = { surface: 'rpc', plugin: 'catalog', procedure: 'getSystems', status: '200' };
      await admin.catalog.getSystems({});
      const keyed = await server.keyed('catalog', { getSystems: {}, getGroups: {} });
      const rest = await server.rest('GET', 'catalog/getSystems');
      const restLabels = { surface: 'rest', plugin: 'catalog', procedure: 'getSystems' };
      const invented = await server.keyed('catalog', { inventedProcedureName: {} });
      expect(invented.status).toBe(404);

      const after = await scraped();
      const moved = (labels: Record<string, string>) =>
        after.value('checkline_http_requests_total', labels) -
        before.value('checkline_http_requests_total', labels);
      expect(moved(systems)).toBe(1);
      expect(
        after.value('checkline_http_request_duration_seconds', systems) -
          before.value('checkline_http_request_duration_seconds', systems),
      ).toBe(1);
      const batch = { surface: 'keyed', plugin: 'catalog', procedure: 'batch' };
      expect(moved({ ...batch, status: String(keyed.status) })).toBe(1);
      expect(moved({ ...restLabels, status: String(rest.status) })).toBe(1);
      // A name a caller makes up never becomes a label: series stay bounded.
      expect(after.text).not.toContain('inventedProcedureName');
      expect(moved({ surface: 'keyed', plugin: 'catalog', procedure: '', status: '404' })).toBe(1);
    });

    it('counts health-check runs and their lag, and reads the due backlog', async () => {
      const before = await scraped();
      const system = await admin.catalog.createSystem({ name: 'metrics-shop' });
      await httpCheck(system.id, 'front page');
      const runs = { type: 'healthcheck.http', outcome: 'pass' };
      const after = await scrapeUntil(
        (now) =>
          now.value('checkline_check_runs_total', runs) >
          before.value('checkline_check_runs_total', runs),
      );
      expect(after.value('checkline_check_lag_seconds')).toBeGreaterThan(
        before.value('checkline_check_lag_seconds'),
      );

      // With this process's scheduler stopped, a new check's first run waits unclaimed.
      const healthcheck = server.checkline.plugins.find(
        (plugin) => plugin.id === 'healthcheck',
      ) as ReturnType<typeof createHealthcheckPlugin>;
      await healthcheck.scheduler().stop();
      expect(after.value('checkline_check_backlog')).toBe(0);
      await httpCheck(system.id, 'waiting');
      const waiting = await scraped();
      expect(waiting.value('checkline_check_backlog')).toBe(1);
      expect(waiting.value('checkline_check_backlog_oldest_seconds')).toBeGreaterThanOrEqual(0);
    });

    it('reads the delivery queue while a send is in flight, and counts the attempt by strategy and outcome', async () => {
      const before = await scraped();
      const queue = { strategy: STRATEGY };
      expect(before.value('checkline_delivery_queue_depth', queue)).toBe(0);
      await admin.notification.sendExternal({
        userIds: [adminUserId],
        notification: { title: 'Checkout is down', type: 'healthcheck.status_changed' },
      });
      // Claimed and sending: still pending until its outcome is recorded.
      await scrapeUntil(() => gated.sent.length === 1);
      expect((await scraped()).value('checkline_delivery_queue_depth', queue)).toBe(1);
      openGate();
      const sent = { strategy: STRATEGY, outcome: 'sent' };
      const after = await scrapeUntil(
        (now) => now.value('checkline_delivery_queue_depth', queue) === 0,
      );
      const attempts = await scrapeUntil(
        (now) => now.value('checkline_delivery_attempts_total', sent) === 1,
      );
      expect(attempts.value('checkline_delivery_attempts_total', sent)).toBe(
        before.value('checkline_delivery_attempts_total', sent) + 1,
      );
      expect(after.value('checkline_delivery_queue_depth', queue)).toBe(0);
    });

    it('reads the event outbox depth and age, back down once dispatched', async () => {
      const before = await scraped();
      const probe = defineEvent<{ at: string }>('metrics.probe');
      // Written outside a request and not dispatched: the dispatcher leaves it to this process.
      const id = await enqueueEvent(server.database.db, probe, { at: new Date().toISOString() });
      const waiting = await scraped();
      expect(waiting.value('checkline_event_outbox_depth')).toBe(
        before.value('checkline_event_outbox_depth') + 1,
      );
      expect(waiting.value('checkline_event_outbox_oldest_seconds')).toBeGreaterThanOrEqual(0);
      server.checkline.runtime.events.dispatch([id]);
      await scrapeUntil(
        (now) =>
          now.value('checkline_event_outbox_depth') ===
          before.value('checkline_event_outbox_depth'),
      );
    });

    it('counts transactions acquiring a connection, and their wait', async () => {
      const before = await scraped();
      await admin.catalog.createSystem({ name: 'metrics-pool' });
      const after = await scraped();
      expect(after.value('checkline_db_pool_acquires_total')).toBeGreaterThan(
        before.value('checkline_db_pool_acquires_total'),
      );
      expect(after.value('checkline_db_pool_acquire_seconds_total')).toBeGreaterThan(
        before.value('checkline_db_pool_acquire_seconds_total'),
      );
      expect(after.value('checkline_db_pool_in_use')).toBeLessThanOrEqual(
        after.value('checkline_db_pool_size'),
      );
    });

    it('counts credential cache misses, hits and invalidations', async () => {
      const { application, secret } = await admin.auth.createApplication({ name: 'metrics-app' });
      const before = await scraped();
      const keys = (result: string) => ({ cache: 'keys', result });
      for (let call = 0; call < 2; call += 1) {
        // Roleless, so refused (403) once the key is known: the lookup happened either way.
        expect((await server.rest('GET', 'catalog/getSystems', { token: secret })).status).toBe(
          403,
        );
      }
      const used = await scraped();
      expect(used.value('checkline_cache_lookups_total', keys('miss'))).toBe(
        before.value('checkline_cache_lookups_total', keys('miss')) + 1,
      );
      expect(used.value('checkline_cache_lookups_total', keys('hit'))).toBe(
        before.value('checkline_cache_lookups_total', keys('hit')) + 1,
      );
      expect(
        used.value('checkline_cache_lookups_total', { cache: 'sessions', result: 'hit' }),
      ).toBeGreaterThan(0);

      const local = { kind: 'application', source: 'local' };
      await admin.auth.regenerateApplicationSecret({ id: application.id });
      const after = await scraped();
      expect(after.value('checkline_cache_invalidations_total', local)).toBeGreaterThan(
        used.value('checkline_cache_invalidations_total', local),
      );
    });
  });
});
