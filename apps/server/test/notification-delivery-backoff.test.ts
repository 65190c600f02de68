import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testPrincipal } from '@checkline/core/testing';
import { createEgress } from '@checkline/net';
import { notificationAccess } from '@checkline/notification';
import type { Delivery } from '@checkline/notification';
import {
  createUsers,
  qualified,
  startDeliveryFixture,
  useRule,
} from '@checkline/notification/testing';
import { webhookStrategy } from '@checkline/notification-webhook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 22 item 5: a webhook receiver that is down for a while still gets the alert. The retry
 * steps are configured short (the production default is 30 s, 2 min, 10 min, 1 h, 6 h); the
 * receiver is a real HTTP server that stops listening and comes back on the same port.
 */
const WEBHOOK = qualified('webhook');
const SECRET = 'receiver-signing-secret-0123';
const retryDelaysMs = [300, 600, 1_200, 2_400];

let fixture: Awaited<ReturnType<typeof startDeliveryFixture>>;
const received: { deliveryId: string; retryAfterAsked: boolean }[] = [];
/** Answers 503 with Retry-After to the first request of a path starting with `/busy`. */
const busyAnswered = new Set<string>();
let receiver: Server;
let port: number;

function listen(server: Server, on = 0) {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(on, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

const receiverServer = () =>
  createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const deliveryId = String(request.headers['x-checkline-delivery']);
      if (request.url?.startsWith('/busy') && !busyAnswered.has(request.url)) {
        busyAnswered.add(request.url);
        response.writeHead(503, { 'retry-after': '2' }).end('busy');
        return;
      }
      received.push({ deliveryId, retryAfterAsked: busyAnswered.has(request.url ?? '') });
      response.writeHead(200).end('ok');
    });
  });

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

beforeAll(async () => {
  receiver = receiverServer();
  port = await listen(receiver);
  fixture = await startDeliveryFixture([webhookStrategy(createEgress({ allowPrivate: true }))], {
    delivery: { retryDelaysMs, maxAttempts: retryDelaysMs.length + 1 },
  });
});
afterAll(async () => {
  await fixture?.close();
  if (receiver.listening) await closeServer(receiver);
});

const admin = testPrincipal([notificationAccess.manageStrategies]);
const sender = testPrincipal([notificationAccess.send]);
let people = 0;

async function userWithWebhook(path: string) {
  const [id] = await createUsers(
    fixture.database.db,
    [`receiver-${++people}@example.com`],
    [useRule('webhook')],
  );
  const principal = testPrincipal([useRule('webhook')], { kind: 'user', id: id! });
  await fixture.server.notification(principal).updateMyChannel({
    strategyId: WEBHOOK,
    config: { url: `http://127.0.0.1:${port}${path}`, signingSecret: SECRET },
  });
  return id!;
}

async function send(userId: string) {
  const { notificationId } = await fixture.server.notification(sender).sendExternal({
    userIds: [userId],
    strategyId: WEBHOOK,
    notification: { title: 'Checkout is down', importance: 'critical', type: 'test.alert' },
  });
  return notificationId;
}

async function deliveryOf(notificationId: string): Promise<Delivery> {
  const { deliveries } = await fixture.server.notification(admin).getDeliveries({ notificationId });
  return deliveries[0]!;
}

/** Ticks the worker until `done` holds of the delivery; fails after `limitMs`. */
async function tickUntil(
  notificationId: string,
  done: (delivery: Delivery) => boolean,
  limitMs = 20_000,
) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    await fixture.server.worker().tick();
    await fixture.server.worker().idle();
    const delivery = await deliveryOf(notificationId);
    if (done(delivery)) return delivery;
    if (Date.now() > deadline)
      throw new Error(`delivery still ${delivery.status} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const gapsMs = (delivery: Delivery) =>
  delivery.attemptLog
    .slice(1)
    .map((attempt, i) => Date.parse(attempt.at) - Date.parse(delivery.attemptLog[i]!.at));

describe('delivery retries', () => {
  it('reaches a receiver that was down for three attempts, each retry waiting its step', async () => {
    const userId = await userWithWebhook('/down');
    await closeServer(receiver);
    const notificationId = await send(userId);
    const refused = await tickUntil(notificationId, (delivery) => delivery.attempts >= 3);
    expect(refused.status).toBe('pending');

    receiver = receiverServer();
    await listen(receiver, port);
    const sent = await tickUntil(notificationId, (delivery) => delivery.status !== 'pending');

    expect(sent.status).toBe('sent');
    expect(sent.attemptLog.map((attempt) => attempt.outcome)).toEqual([
      'retry',
      'retry',
      'retry',
      'sent',
    ]);
    // Each retry came no sooner than its step allows (a step is shortened by a quarter at most).
    gapsMs(sent).forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(retryDelaysMs[i]! * 0.75));
    expect(received.filter((entry) => entry.deliveryId === sent.id)).toHaveLength(1);
  });

  it("waits as long as the receiver's Retry-After asks, beyond the first step", async () => {
    const userId = await userWithWebhook('/busy-1');
    const notificationId = await send(userId);
    const sent = await tickUntil(notificationId, (delivery) => delivery.status !== 'pending');
    expect(sent.attemptLog.map((attempt) => attempt.outcome)).toEqual(['retry', 'sent']);
    expect(gapsMs(sent)[0]).toBeGreaterThanOrEqual(2_000);
  });

  it('redelivers a failed delivery on request, with the same id, keeping its attempt log', async () => {
    const userId = await userWithWebhook('/redelivered');
    await closeServer(receiver);
    const notificationId = await send(userId);
    const failed = await tickUntil(notificationId, (delivery) => delivery.status !== 'pending');
    expect(failed).toMatchObject({ status: 'failed', attempts: retryDelaysMs.length + 1 });

    receiver = receiverServer();
    await listen(receiver, port);
    const requeued = await fixture.server.notification(admin).redeliver({ id: failed.id });
    expect(requeued).toMatchObject({ id: failed.id, status: 'pending', finishedAt: null });
    const sent = await tickUntil(notificationId, (delivery) => delivery.status !== 'pending');

    expect(sent.status).toBe('sent');
    expect(sent.attemptLog.map((attempt) => attempt.outcome)).toEqual([
      ...retryDelaysMs.map(() => 'retry'),
      'failed',
      'sent',
    ]);
    expect(received.filter((entry) => entry.deliveryId === failed.id)).toHaveLength(1);
  });

  it('refuses to redeliver a delivery that did not fail, and one that does not exist', async () => {
    const userId = await userWithWebhook('/arrives');
    const notificationId = await send(userId);
    const sent = await tickUntil(notificationId, (delivery) => delivery.status !== 'pending');
    expect(sent.status).toBe('sent');
    await expect(
      fixture.server.notification(admin).redeliver({ id: sent.id }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Only a failed delivery can be redelivered; this one is sent',
    });
    await expect(
      fixture.server.notification(admin).redeliver({ id: '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      fixture.server.notification(sender).redeliver({ id: sent.id }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('lists failed deliveries of a strategy and a time span, without the others', async () => {
    const from = new Date().toISOString();
    const userId = await userWithWebhook('/listed');
    await closeServer(receiver);
    const notificationId = await send(userId);
    const failed = await tickUntil(notificationId, (delivery) => delivery.status !== 'pending');
    receiver = receiverServer();
    await listen(receiver, port);
    const before = new Date(Date.parse(failed.createdAt) + 1).toISOString();
    const log = fixture.server.notification(admin);

    const inSpan = await log.getDeliveries({
      status: 'failed',
      strategyId: WEBHOOK,
      createdFrom: from,
      createdBefore: before,
    });
    expect(inSpan.deliveries.map((delivery) => delivery.id)).toEqual([failed.id]);
    const after = await log.getDeliveries({ status: 'failed', createdFrom: before });
    expect(after.deliveries).toEqual([]);
    const earlier = await log.getDeliveries({ createdBefore: from });
    expect(earlier.deliveries.map((delivery) => delivery.id)).not.toContain(failed.id);
  });
});
