import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthContract } from '@checkline/auth/contract';
import type { HealthcheckContract } from '@checkline/healthcheck/contract';
import type { MaintenanceContract } from '@checkline/maintenance/contract';
import { queryRows } from '@checkline/db';
import type { NotificationContract } from '@checkline/notification/contract';
import type { WebhookPayload } from '@checkline/notification-webhook';
import type { ContractRouterClient } from '@orpc/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  restCall,
  startWebhookWatcherWorld,
  type WebhookReceiver,
} from './support/alert-channels.ts';
import type { TestServer } from './support/test-server.ts';

/**
 * Issue 22 item 8 over loopback: the messages of one system reach a webhook receiver in the
 * order the events happened. A window deleted while its systems are down ends the maintenance
 * before they are announced unhealthy again; quick status changes arrive in order even when the
 * receiver turns the first one away for a while (a later one never overtakes it).
 */
type Contracts = {
  auth: AuthContract;
  healthcheck: HealthcheckContract;
  maintenance: MaintenanceContract;
  notification: NotificationContract;
};
type Client = ContractRouterClient<Contracts>;

const PASSWORD = 'a sound enough password';
const WAIT_MS = 20_000;

let server: TestServer;
let admin: Client;
let adminHeaders: Record<string, string>;
let watcher: Client;

let receiver: WebhookReceiver;
/** Delivery ids the receiver turns away (503) this many more times. */
const refusals = new Map<string, number>();
/** Titles whose first delivery the receiver turns away this many times before accepting it. */
const refusedTitles = new Map<string, number>();

function answerFor(payload: WebhookPayload, headers: IncomingHttpHeaders): number {
  const deliveryId = String(headers['x-checkline-delivery']);
  const refused = refusedTitles.get(payload.title);
  if (refused !== undefined && refusedTitles.delete(payload.title)) {
    refusals.set(deliveryId, refused);
  }
  const left = refusals.get(deliveryId) ?? 0;
  if (left === 0) return 200;
  refusals.set(deliveryId, left - 1);
  return 503;
}

let targetStatus = 500;
const target = createServer((_request, response) => {
  response.writeHead(targetStatus).end('target');
});
let targetUrl: string;

const rest = (path: string, body: unknown, method?: string) =>
  restCall(server, adminHeaders, path, body, method);

/** Waits (bounded) until `done` holds. */
async function until(what: string, done: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + WAIT_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const titlesAccepted = () => receiver.received.map(({ payload }) => payload.title);
const countOf = (title: string) => titlesAccepted().filter((seen) => seen === title).length;

/** A system the watcher subscribes to (`events`), with an http check against the target. */
async function watchedSystem(name: string, events: ('health' | 'maintenance')[]) {
  const system = await rest('catalog/createSystem', { name });
  const systemId = system.id as string;
  await watcher.notification.createSubscription({ systemId, events });
  const check = await rest('healthcheck/createHealthCheck', {
    systemId,
    name: `${name} ping`,
    type: 'healthcheck.http',
    config: { url: targetUrl },
    intervalSeconds: 3_600,
    timeoutMs: 2_000,
  });
  return { systemId, checkId: check.id as string };
}

async function statusOf(systemId: string) {
  return (await admin.healthcheck.getSystemHealthStatus({ systemId })).status;
}

let world: Awaited<ReturnType<typeof startWebhookWatcherWorld<Contracts>>> | undefined;

beforeAll(async () => {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
  world = await startWebhookWatcherWorld<Contracts>({
    name: 'order',
    password: PASSWORD,
    answer: answerFor,
    server: {
      notification: { delivery: { maxAttempts: 5, retryDelaysMs: [150, 150, 150, 150] } },
      // The tests run their checks themselves; a scheduled run beside them would add a change.
      scheduledChecks: false,
    },
  });
  ({ server, receiver, admin, adminHeaders, watcher } = world);
});
afterAll(async () => {
  await world?.close();
  await new Promise((resolve) => target.close(resolve));
});

/** The titles of the messages written about the Gateway system, in the order they were written. */
async function gatewayMessages(): Promise<string[]> {
  const rows = await queryRows<{ title: string }>(
    server.database.db,
    sql`select title from notification.messages where title like '%: Gateway' order by created_at, id`,
  );
  return rows.map((row) => row.title);
}

describe('the messages of one system arrive in the order the events happened', () => {
  it('a window deleted during an outage says "Maintenance ended" before "Now unhealthy"', async () => {
    targetStatus = 500;
    const names = ['Ledger', 'Payroll', 'Invoicing', 'Billing'];
    const systems: { systemId: string; checkId: string }[] = [];
    for (const name of names) systems.push(await watchedSystem(name, ['health', 'maintenance']));
    for (const { checkId } of systems) await rest('healthcheck/runHealthCheck', { id: checkId });
    await until('the outage announced', () =>
      names.every((name) => countOf(`Now unhealthy: ${name}`) === 1),
    );

    const window = await rest('maintenance/scheduleWindow', {
      title: 'Rack move',
      systemIds: systems.map(({ systemId }) => systemId),
      startAt: new Date(Date.now() + 500).toISOString(),
      endAt: new Date(Date.now() + 60 * 60_000).toISOString(),
    });
    await until('the window started', () => countOf('Maintenance started: Rack move') === 1);
    await until('the systems in maintenance', async () => {
      for (const { systemId } of systems) {
        if ((await statusOf(systemId)) !== 'maintenance') return false;
      }
      return true;
    });

    // The receiver turns the end away once: its retry must still come before the outage.
    refusedTitles.set('Maintenance ended: Rack move', 1);
    await admin.maintenance.deleteWindow({ id: window.id as string });
    await until('the outage announced again', () =>
      names.every((name) => countOf(`Now unhealthy: ${name}`) === 2),
    );
    await until('the end announced', () => countOf('Maintenance ended: Rack move') === 1);

    const titles = titlesAccepted();
    const ended = titles.indexOf('Maintenance ended: Rack move');
    for (const name of names) {
      expect(titles.lastIndexOf(`Now unhealthy: ${name}`), `${name} after the end`).toBeGreaterThan(
        ended,
      );
    }
  });

  it('quick status changes of one system arrive in order, a refused one holding back the next', async () => {
    targetStatus = 200;
    const { systemId, checkId } = await watchedSystem('Gateway', ['health']);
    await rest('healthcheck/runHealthCheck', { id: checkId });
    await until('the gateway healthy', async () => (await statusOf(systemId)) === 'healthy');
    await until('its first status told', () => countOf('Now healthy: Gateway') === 1);
    const before = receiver.received.length;
    const toldBefore = (await gatewayMessages()).length;
    // The receiver turns the first alert away twice: the retries must not let the next pass it.
    refusedTitles.set('Now unhealthy: Gateway', 2);
    for (let change = 0; change < 6; change++) {
      targetStatus = change % 2 === 0 ? 500 : 200;
      await rest('healthcheck/runHealthCheck', { id: checkId });
    }
    // The order the changes happened in is the order their messages were written.
    let expected: string[] = [];
    await until('every change delivered', async () => {
      expected = (await gatewayMessages()).slice(toldBefore);
      return expected.length >= 6 && receiver.received.length - before >= expected.length;
    });
    expect(expected[0]).toBe('Now unhealthy: Gateway');
    expect(titlesAccepted().slice(before)).toEqual(expected);
  });
});
