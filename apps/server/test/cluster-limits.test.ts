import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAdminSession, clusterPerFile } from './support/cluster.ts';
import { createHeartbeatCheck, heartbeatPath } from './support/heartbeat-check.ts';

/*
 * Three server processes on one PostgreSQL database behind the round-robin proxy: a budget spent
 * through all three trips at the one shared limit, not at three times it.
 */
const KEY_BUDGET = 300;
const RUN_BUDGET = 6;
const BEAT_BUDGET = 6;

const shared = clusterPerFile({
  size: 3,
  env: {
    API_KEY_RATE_LIMIT: String(KEY_BUDGET),
    CHECK_RUN_RATE_LIMIT: String(RUN_BUDGET),
    HEARTBEAT_RATE_LIMIT: String(BEAT_BUDGET),
  },
});
let session: Record<string, string>;
let target: Server;

beforeAll(async () => {
  target = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  session = await clusterAdminSession(shared.cluster);
}, 180_000);
afterAll(async () => {
  target?.closeAllConnections();
  await new Promise((resolve) => target?.close(resolve));
}, 60_000);

/** A REST call through the proxy (so to the next process in turn); status and body. */
async function rest(
  procedure: string,
  body: unknown,
  headers: Record<string, string>,
  method = 'POST',
) {
  const response = await fetch(`${shared.cluster.url}/rest/${procedure}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(method !== 'GET' && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, any>,
  };
}

async function asAdmin(procedure: string, body: unknown, method = 'POST') {
  const answer = await rest(procedure, body, session, method);
  if (answer.status !== 200) throw new Error(`${procedure}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The statuses of `calls` made one after another through the proxy. */
async function statusesOf(calls: number, call: () => Promise<{ status: number }>) {
  const statuses: number[] = [];
  for (let index = 0; index < calls; index++) statuses.push((await call()).status);
  return statuses;
}

const count = (statuses: number[], status: number) =>
  statuses.filter((value) => value === status).length;

describe('budgets shared by three processes', () => {
  it(
    'let one key spend its budget once between them, never more',
    { timeout: 60_000 },
    async () => {
      const role = await asAdmin('auth/createRole', {
        name: 'reader',
        accessRules: ['catalog.catalog.read'],
      });
      const app = await asAdmin('auth/createApplication', { name: 'spender' });
      await asAdmin(
        'auth/updateApplication',
        {
          id: app.application.id,
          roleIds: [role.id],
        },
        'PATCH',
      );
      const key = { authorization: `Bearer ${app.secret as string}` };
      // Each process alone would allow all of them.
      const statuses = await statusesOf(KEY_BUDGET + 100, () =>
        rest('catalog/getSystems', undefined, key, 'GET'),
      );
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      const allowed = count(statuses, 200);
      expect(allowed).toBeLessThanOrEqual(KEY_BUDGET);
      // Up to 1.5 leased chunks (of 3 points) per process may be lost to the window's end.
      expect(allowed).toBeGreaterThanOrEqual(KEY_BUDGET - 3 * 5);
      // Once all three have found it spent, every process refuses, with a time to wait.
      expect(count(statuses.slice(-60), 429)).toBe(60);
      const refused = await rest('catalog/getSystems', undefined, key, 'GET');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    },
  );

  it('let a caller run checks by hand as often as the one budget says', async () => {
    const { port } = target.address() as AddressInfo;
    const system = await asAdmin('catalog/createSystem', { name: 'run-now' });
    const check = await asAdmin('healthcheck/createHealthCheck', {
      systemId: system.id,
      name: 'by hand',
      type: 'healthcheck.http',
      config: { url: `http://127.0.0.1:${port}/` },
      intervalSeconds: 3_600,
      timeoutMs: 2_000,
    });
    const statuses = await statusesOf(RUN_BUDGET * 3, () =>
      rest('healthcheck/runHealthCheck', { id: check.id }, session),
    );
    expect(statuses).toEqual([
      ...Array<number>(RUN_BUDGET).fill(200),
      ...Array<number>(RUN_BUDGET * 2).fill(429),
    ]);
  });

  it('take as many beats of one heartbeat check as the one budget says', async () => {
    const { token } = await createHeartbeatCheck(asAdmin, 'beats', 'nightly');
    const beat = () =>
      fetch(`${shared.cluster.url}${heartbeatPath(token)}`, {
        method: 'POST',
        signal: AbortSignal.timeout(10_000),
      });
    const statuses = await statusesOf(BEAT_BUDGET * 3, beat);
    expect(statuses).toEqual([
      ...Array<number>(BEAT_BUDGET).fill(200),
      ...Array<number>(BEAT_BUDGET * 2).fill(429),
    ]);
    const refused = await beat();
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
