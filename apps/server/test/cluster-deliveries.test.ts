import type { TestPostgres } from '@checkline/db/testing';
import { createTestPostgres } from '@checkline/db/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from './support/cluster.ts';
import { clusterAdminSession, startCluster } from './support/cluster.ts';
import { localPortsOf } from './support/socket-owner.ts';

/*
 * Three server processes share one delivery queue on one PostgreSQL database: each delivery is
 * sent once between them, a process stopped with SIGTERM finishes what it was sending, and what a
 * process killed with SIGKILL was sending is sent again once its claim's lease lapses. The
 * receiver is a loopback server; it answers the `slow-` batches after two seconds, so sends are
 * in flight when a process is stopped.
 */
const LEASE_MS = 5_000;
const SLOW_ANSWER_MS = 2_000;

interface Received {
  deliveryId: string;
  title: string;
  /** The sender's port, to tell which process sent it. */
  remotePort: number;
  /** When it arrived (epoch ms). */
  at: number;
  answered: boolean;
  abandoned: boolean;
}

let database: TestPostgres;
let cluster: Cluster;
let session: Record<string, string>;
let receiver: Server;
const received: Received[] = [];
let sql: postgres.Sql;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { title } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title: string };
      const entry: Received = {
        deliveryId: String(request.headers['x-checkline-delivery']),
        title,
        remotePort: request.socket.remotePort ?? 0,
        at: Date.now(),
        answered: false,
        abandoned: false,
      };
      received.push(entry);
      const answer = () => {
        entry.answered = true;
        response.writeHead(200).end('ok');
      };
      const timer = title.startsWith('slow-') ? setTimeout(answer, SLOW_ANSWER_MS) : undefined;
      if (!timer) answer();
      response.on('close', () => {
        clearTimeout(timer);
        if (!entry.answered) entry.abandoned = true;
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  database = await createTestPostgres();
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  cluster = await startCluster({
    databaseUrl: database.url,
    size: 3,
    env: {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      DELIVERY_LEASE_MS: String(LEASE_MS),
      DELIVERY_SEND_TIMEOUT_MS: '4000',
      DELIVERY_RETRY_DELAYS: '1',
    },
  });
  session = await clusterAdminSession(cluster);
  const { port } = receiver.address() as AddressInfo;
  await asAdmin(
    'notification/updateStrategy',
    {
      strategyId: WEBHOOK,
      enabled: true,
      config: {
        url: `http://127.0.0.1:${port}/hook`,
        signingSecret: 'cluster-signing-secret-0123',
      },
    },
    'PATCH',
  );
  adminId = (await asAdmin('auth/getMe', undefined, 'GET')).id as string;
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  await sql?.end({ timeout: 0 });
  await database?.drop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
}, 60_000);

const WEBHOOK = 'notification-webhook.webhook';
let adminId: string;

async function asAdmin(procedure: string, body: unknown, method = 'POST') {
  const response = await fetch(`${cluster.url}/rest/${procedure}`, {
    method,
    headers: { 'content-type': 'application/json', ...session },
    ...(method !== 'GET' && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(`${procedure}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Queues `count` webhook deliveries titled `{prefix}{n}` through the proxy, ten at a time. */
async function queue(prefix: string, count: number) {
  for (let start = 0; start < count; start += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - start) }, (_, offset) =>
        asAdmin('notification/sendExternal', {
          userIds: [adminId],
          strategyId: WEBHOOK,
          notification: { title: `${prefix}${start + offset}`, type: 'cluster.test' },
        }),
      ),
    );
  }
}

interface StoredDelivery {
  title: string;
  status: string;
  attempts: number;
  errors: (string | null)[];
}

const stored = (prefix: string) => sql<StoredDelivery[]>`
  select messages.title, deliveries.status, deliveries.attempts,
    coalesce((select jsonb_agg(entry->>'error') from jsonb_array_elements(deliveries.attempt_log)
      as entry), '[]'::jsonb) as errors
  from notification.deliveries
  join notification.messages on messages.id = deliveries.message_id
  where messages.title like ${`${prefix}%`}`;

/** The deliveries titled `prefix…` once none is pending (polling at most `ms`). */
async function settled(prefix: string, count: number, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const rows = await stored(prefix);
    if (rows.length === count && rows.every((row) => row.status !== 'pending')) return rows;
    if (Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const requestsFor = (prefix: string) => received.filter((entry) => entry.title.startsWith(prefix));

/** Waits until `count` requests of `prefix` are open at the receiver (at most 30 s). */
async function inFlight(prefix: string, count: number) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    // Fresh ones only: they are still open when the process is signalled a moment later.
    const open = requestsFor(prefix).filter(
      (entry) => !entry.answered && !entry.abandoned && Date.now() - entry.at < SLOW_ANSWER_MS / 2,
    );
    if (open.length >= count) return open;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`fewer than ${count} ${prefix} requests in flight`);
}

/** A running process with requests of `prefix` open at the receiver, and those requests. */
async function busyMember(prefix: string) {
  const open = await inFlight(prefix, 5);
  for (const member of cluster.members.filter((candidate) => candidate.process.alive())) {
    const ports = await localPortsOf(member.process.pid);
    const its = open.filter((entry) => ports.has(entry.remotePort));
    if (its.length > 0) return { member, requests: its };
  }
  throw new Error('no running process holds an open request');
}

/** The survivors keep answering through the proxy, reads and changes alike. */
async function expectServing() {
  for (let index = 0; index < 4; index++) {
    expect((await fetch(`${cluster.url}/healthz`)).status).toBe(200);
    await asAdmin('catalog/createSystem', { name: `still-serving-${Date.now()}-${index}` });
  }
}

describe('three processes sharing one delivery queue', () => {
  it('send each of 500 deliveries exactly once between them', { timeout: 120_000 }, async () => {
    await queue('once-', 500);
    const rows = await settled('once-', 500);
    expect(rows).toHaveLength(500);
    expect(rows.filter((row) => row.status !== 'sent' || row.attempts !== 1)).toEqual([]);
    const requests = requestsFor('once-');
    expect(new Set(requests.map((entry) => entry.deliveryId)).size).toBe(500);
    expect(requests).toHaveLength(500);
  });

  it(
    'finish, on SIGTERM, the sends a process has in flight, and leave nothing for the lease',
    { timeout: 120_000 },
    async () => {
      await queue('slow-term-', 150);
      const { member, requests } = await busyMember('slow-term-');
      member.process.signal('SIGTERM');
      expect(await member.process.exitWithin(30_000)).toMatchObject({ code: 0 });
      // What it was sending was answered, not cut off.
      expect(requests.filter((entry) => !entry.answered)).toEqual([]);
      const rows = await settled('slow-term-', 150);
      expect(rows).toHaveLength(150);
      // Each sent on its first attempt: none waited for a lapsed lease or went out twice.
      const unlike = rows.filter((row) => row.status !== 'sent' || row.attempts !== 1);
      expect(unlike.map((row) => JSON.stringify(row))).toEqual([]);
      const sent = requestsFor('slow-term-');
      expect(sent).toHaveLength(150);
      expect(new Set(sent.map((entry) => entry.deliveryId)).size).toBe(150);
      await expectServing();
    },
  );

  /** Runs last: it leaves one process of the three. */
  it(
    'send again, once its lease lapses, each delivery a killed process was sending, and lose none',
    { timeout: 120_000 },
    async () => {
      await queue('slow-kill-', 150);
      const { member, requests } = await busyMember('slow-kill-');
      member.process.signal('SIGKILL');
      expect(await member.process.exitWithin(10_000)).toMatchObject({ signal: 'SIGKILL' });
      const rows = await settled('slow-kill-', 150, 90_000);
      expect(rows).toHaveLength(150);
      expect(rows.filter((row) => row.status !== 'sent')).toEqual([]);
      const sent = requestsFor('slow-kill-');
      const times = new Map<string, number>();
      for (const entry of sent) times.set(entry.deliveryId, (times.get(entry.deliveryId) ?? 0) + 1);
      expect(times.size).toBe(150);
      // Every send the receiver saw is an attempt the queue recorded: nothing went out again
      // unaccounted for. (On a loaded machine a survivor's own send may time out and be retried:
      // recorded, so allowed.)
      const attemptsOf = new Map(rows.map((row) => [row.title, row.attempts]));
      const sendsOf = new Map<string, number>();
      for (const entry of sent) sendsOf.set(entry.title, (sendsOf.get(entry.title) ?? 0) + 1);
      expect([...sendsOf].filter(([title, count]) => count > (attemptsOf.get(title) ?? 0))).toEqual(
        [],
      );
      // What the killed process was sending was cut off and, once its lease lapsed, sent again by
      // a survivor, which logged the lapse as that delivery's first attempt.
      expect(requests.every((entry) => entry.abandoned)).toBe(true);
      const killedTitles = new Set(requests.map((entry) => entry.title));
      const killedRows = rows.filter((row) => killedTitles.has(row.title));
      expect(killedRows).toHaveLength(killedTitles.size);
      for (const row of killedRows) {
        expect(sendsOf.get(row.title)).toBeGreaterThanOrEqual(2);
        expect(row.errors[0]).toMatch(/lease lapsed/);
      }
      await expectServing();
    },
  );
});
