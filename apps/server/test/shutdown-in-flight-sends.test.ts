import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestPostgres } from '@checkline/db/testing';
import { createTestPostgres, freeLoopbackPort } from '@checkline/db/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from './support/server-process.ts';
import { startServerProcess } from './support/server-process.ts';

/**
 * Issue 22 item 7: SIGTERM with webhook sends in flight. The receiver answers each send only
 * after longer than SHUTDOWN_TIMEOUT_MS and the close grace together (and within the webhook's
 * own 10 s timeout); the stopping process claims nothing more, lets the sends finish within
 * DELIVERY_SEND_TIMEOUT_MS and records them, so none is left claimed, to be taken over and sent
 * again once its lease lapses. The SIGTERM follows the last send's arrival: on a busy machine
 * the 40 arrive over more than 8 s, so the first may be answered before it; the last ones are
 * in flight.
 */
const WEBHOOK = 'notification-webhook.webhook';
const admin = { email: 'admin@example.com', password: 'shutdown-admin-password' };
const SENDS = 40;
const ANSWER_AFTER_MS = 8_000;

let database: TestPostgres;
let server: ServerProcess;
let baseUrl: string;
let cookie: string;
const received = new Map<string, number>();
const inFlight = new Set<string>();

const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const id = String(request.headers['x-checkline-delivery']);
    received.set(id, (received.get(id) ?? 0) + 1);
    inFlight.add(id);
    setTimeout(() => {
      inFlight.delete(id);
      response.writeHead(200).end('ok');
    }, ANSWER_AFTER_MS);
  });
});

async function call(plugin: string, body: unknown) {
  const response = await fetch(`${baseUrl}/api/${plugin}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: baseUrl },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(JSON.stringify(answer));
  return answer;
}

beforeAll(async () => {
  database = await createTestPostgres();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = await freeLoopbackPort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = startServerProcess({
    DATABASE_URL: database.url,
    PORT: String(port),
    BASE_URL: baseUrl,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    SHUTDOWN_TIMEOUT_MS: '1000',
    DELIVERY_SEND_TIMEOUT_MS: '20000',
  });
  await server.waitForLog((line) => line.msg === 'listening', 60_000);
  const login = await fetch(`${baseUrl}/api/auth-backend/custom/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: admin.email, password: admin.password }),
  });
  cookie = /checkline_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0] ?? '';
  if (!cookie) throw new Error(`sign-in failed: ${login.status}`);
}, 120_000);
afterAll(async () => {
  await server?.dispose();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await database?.drop();
}, 60_000);

/** How the queue stands, for the failure message: counts by status, attempts and claim. */
async function deliveryStates() {
  const sql = postgres(database.url, { max: 1 });
  try {
    return await sql`
      select status, attempts, claim_token is not null as claimed, count(*)::int as count,
        min(next_attempt_at) as next_attempt_at, max(last_error) as last_error
      from notification.deliveries group by 1, 2, 3`;
  } finally {
    await sql.end();
  }
}

describe('SIGTERM with webhook sends in flight', () => {
  it('finishes and records every send: none is left to be repeated after the lease', async () => {
    const { port } = receiver.address() as AddressInfo;
    await call('notification', {
      updateStrategy: {
        strategyId: WEBHOOK,
        enabled: true,
        config: { url: `http://127.0.0.1:${port}/hook`, signingSecret: 'shutdown-signing-secret' },
      },
    });
    const { getMe } = await call('auth', { getMe: {} });
    for (let index = 0; index < SENDS; index += 1) {
      await call('notification', {
        sendExternal: {
          userIds: [getMe.id],
          strategyId: WEBHOOK,
          notification: { title: `Alert ${index}`, importance: 'critical', type: 'test.alert' },
        },
      });
    }
    // Bounded, but generous for a busy machine.
    const deadline = Date.now() + 90_000;
    while (received.size < SENDS && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (received.size < SENDS) {
      throw new Error(
        `${received.size} of ${SENDS} sends reached the receiver; deliveries: ` +
          `${JSON.stringify(await deliveryStates())}; server log: ` +
          JSON.stringify(server.lines.filter((line) => line.msg !== 'request').slice(-20)),
      );
    }

    expect(inFlight.size).toBeGreaterThan(0);
    server.signal('SIGTERM');
    const exit = await server.exitWithin(40_000);

    expect(exit).toEqual({ code: 0, signal: null });
    const sql = postgres(database.url, { max: 1 });
    try {
      const rows = await sql<{ status: string; attempts: number; claimed: boolean }[]>`
        select status, attempts, claim_token is not null as claimed from notification.deliveries`;
      expect(rows).toHaveLength(SENDS);
      expect(
        rows.filter((row) => row.status !== 'sent' || row.attempts !== 1 || row.claimed),
      ).toEqual([]);
    } finally {
      await sql.end();
    }
    expect([...received.values()].filter((count) => count !== 1)).toEqual([]);
    expect(received.size).toBe(SENDS);
  }, 240_000);
});
