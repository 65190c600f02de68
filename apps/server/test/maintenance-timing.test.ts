import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthContract } from '@checkline/auth/contract';
import { createEgress } from '@checkline/net';
import type { NotificationContract } from '@checkline/notification/contract';
import type { WebhookPayload } from '@checkline/notification-webhook';
import { createWebhookChannelPlugin } from '@checkline/notification-webhook';
import type { ContractRouterClient } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract-client.ts';
import { monitoringRules } from './support/team-world.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 22 item 8 over loopback: a maintenance window's start and end reach a webhook receiver
 * when they happen, not at the maintenance ticker's next round (15 s apart): a timer wakes the
 * ticker at the next boundary. The bound asserted (5 s) is a third of the tick interval, so
 * only the timer can meet it; the lag measured is printed.
 */
type Contracts = { auth: AuthContract; notification: NotificationContract };
type Client = ContractRouterClient<Contracts>;

const WEBHOOK = 'notification-webhook.webhook';
const PASSWORD = 'a sound enough password';
const WAIT_MS = 20_000;
const TICK_MS = 15_000;

let server: TestServer;
let admin: Client;
let adminHeaders: Record<string, string>;
let watcher: Client;
const received: { at: number; payload: WebhookPayload }[] = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    received.push({ at: Date.now(), payload: JSON.parse(body) as WebhookPayload });
    response.writeHead(200).end('ok');
  });
});

async function rest(path: string, body: unknown, method = 'POST') {
  const response = await server.request(`/rest/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...adminHeaders },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer;
}

async function arrival(title: string): Promise<number> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const hit = received.find((entry) => entry.payload.title === title);
    if (hit) return hit.at;
    if (Date.now() > deadline) throw new Error(`no webhook "${title}" within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  server = await createTestServer({
    extraPlugins: [createWebhookChannelPlugin({ egress: createEgress({ allowPrivate: true }) })],
  });
  const { cookie } = await server.adminSession();
  adminHeaders = { cookie, origin: testEnv.BASE_URL };
  admin = contractClient<Contracts>(() => server, adminHeaders);
  await admin.notification.updateStrategy({
    strategyId: WEBHOOK,
    enabled: true,
    config: {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      signingSecret: 'maintenance-timing-secret',
    },
  });
  const role = await admin.auth.createRole({
    name: 'maintenance-watchers',
    accessRules: [...monitoringRules, 'notification-webhook.strategy.webhook.use'],
  });
  const email = 'maintenance-watcher@example.com';
  await admin.auth.createUser({ email, password: PASSWORD, roleIds: [role.id] });
  watcher = contractClient<Contracts>(() => server, await server.sessionOf(email, PASSWORD));
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('maintenance windows on time', () => {
  it('announces the start and the end when they happen, not at the next tick', async () => {
    const system = await rest('catalog/createSystem', { name: 'Warehouse' });
    await watcher.notification.createSubscription({
      systemId: system.id as string,
      events: ['maintenance'],
    });
    const startAt = Date.now() + 3_000;
    const endAt = startAt + 3_000;
    await rest('maintenance/scheduleWindow', {
      title: 'Disk swap',
      systemIds: [system.id],
      startAt: new Date(startAt).toISOString(),
      endAt: new Date(endAt).toISOString(),
    });
    const started = await arrival('Maintenance started: Disk swap');
    const ended = await arrival('Maintenance ended: Disk swap');
    console.info(`maintenance lag: start ${started - startAt} ms, end ${ended - endAt} ms`);
    expect(started).toBeGreaterThanOrEqual(startAt);
    expect(started - startAt).toBeLessThan(TICK_MS / 3);
    expect(ended).toBeGreaterThanOrEqual(endAt);
    expect(ended - endAt).toBeLessThan(TICK_MS / 3);
  });
});
