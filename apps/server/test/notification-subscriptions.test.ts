import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthContract } from '@checkline/auth/contract';
import type { CatalogContract } from '@checkline/catalog/contract';
import { eventOutbox } from '@checkline/db';
import type { Delivery } from '@checkline/notification';
import type { NotificationContract } from '@checkline/notification/contract';
import {
  recordingStrategy,
  testChannelPlugin,
  writeStrategySettings,
} from '@checkline/notification/testing';
import type { ContractRouterClient } from '@orpc/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCall } from './support/alert-channels.ts';
import { contractClient } from './support/contract-client.ts';
import { monitoringRules } from './support/team-world.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/**
 * Issue 10 item 11 over HTTP: users subscribe with their sessions; monitoring changes made through
 * REST become notifications in their inboxes and on a test channel, as team access allows, and
 * health alerts under maintenance are held back with the reason in the delivery log.
 */
type Contracts = {
  auth: AuthContract;
  catalog: CatalogContract;
  notification: NotificationContract;
};
type Client = ContractRouterClient<Contracts>;

const CHANNEL = 'test-channel';
const recorder = recordingStrategy({ id: 'email', contactResolution: { type: 'auth-email' } });
const STRATEGY = `${CHANNEL}.email`;
const PASSWORD = 'a sound enough password';

let server: TestServer;
let admin: Client;
let adminHeaders: Record<string, string>;
let watchersRoleId: string;
let teamId: string;
let names = 0;
const unique = (prefix: string) => `${prefix}-${++names}`;
const clientWith = (headers: Record<string, string>) =>
  contractClient<Contracts>(() => server, headers);

/**
 * A target that always fails: the scheduler may run a new check (it is due at once) beside the
 * test's own run, and any run must see the same status, or a second change would follow.
 */
const target = createServer((_request, response) => {
  response.writeHead(500).end('broken');
});
let targetUrl: string;

interface Watcher {
  id: string;
  email: string;
  client: Client;
}

/** A user holding every monitoring rule and the channel's `.use` rule, signed in. */
async function newWatcher(options: { inTeam?: boolean } = {}): Promise<Watcher> {
  const email = `${unique('watcher')}@example.com`;
  const user = await admin.auth.createUser({
    email,
    password: PASSWORD,
    roleIds: [watchersRoleId],
  });
  if (options.inTeam) await admin.auth.addTeamMember({ teamId, userId: user.id });
  return { id: user.id, email, client: clientWith(await server.sessionOf(email, PASSWORD)) };
}

const rest = (path: string, body: unknown, method?: string) =>
  restCall(server, adminHeaders, path, body, method);

const newSystem = async () =>
  (await rest('catalog/createSystem', { name: unique('system') })).id as string;

/** A system only `teamId` may read. */
async function teamOnlySystem() {
  const systemId = await newSystem();
  await admin.auth.updateResourceAccess({
    resourceType: 'catalog.system',
    resourceId: systemId,
    teamOnly: true,
    grants: [{ teamId, access: 'read' }],
  });
  return systemId;
}

/** Waits until every event so far has run its subscribers, then until no delivery is pending. */
async function quiet(): Promise<Delivery[]> {
  await server.checkline.runtime.events.settled();
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { deliveries } = await admin.notification.getDeliveries({ limit: 1000 });
    if (deliveries.every((delivery) => delivery.status !== 'pending')) return deliveries;
    if (Date.now() > deadline) throw new Error('deliveries still pending');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Gives the system an http check against the failing target and runs it: it turns unhealthy. */
async function makeUnhealthy(systemId: string): Promise<void> {
  const check = await rest('healthcheck/createHealthCheck', {
    systemId,
    name: 'front',
    type: 'healthcheck.http',
    config: { url: targetUrl },
    intervalSeconds: 3_600,
    timeoutMs: 2_000,
  });
  await rest('healthcheck/runHealthCheck', { id: check.id });
}

const inboxOf = async (watcher: Watcher) =>
  (await watcher.client.notification.getNotifications({})).notifications;
const sentTo = (watcher: Watcher) =>
  recorder.sent.filter((context) => context.contact === watcher.email);

/**
 * The watcher's deliveries among `deliveries` once an alert to it was held back: it got no inbox
 * row and no message, and each of its deliveries (at least one) is skipped on the channel.
 */
async function heldBack(watcher: Watcher, deliveries: Delivery[]): Promise<Delivery[]> {
  expect(await inboxOf(watcher)).toEqual([]);
  expect(sentTo(watcher)).toEqual([]);
  const mine = deliveries.filter((delivery) => delivery.userId === watcher.id);
  expect(mine.length).toBeGreaterThan(0);
  for (const delivery of mine) {
    expect(delivery).toMatchObject({ status: 'skipped', strategyId: STRATEGY });
  }
  return mine;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
  server = await createTestServer({
    extraPlugins: [testChannelPlugin(CHANNEL, [recorder.strategy])],
  });
  const { cookie, origin } = await server.adminSession();
  adminHeaders = { cookie, origin };
  admin = clientWith(adminHeaders);
  const role = await admin.auth.createRole({
    name: 'watchers',
    // Subscribers, not routers: each may change only their own subscriptions.
    accessRules: [
      ...monitoringRules.filter((rule) => rule !== 'notification.subscriptions.manage'),
      `${CHANNEL}.strategy.email.use`,
    ],
  });
  watchersRoleId = role.id;
  teamId = (await admin.auth.createTeam({ name: 'owners' })).id;
  await writeStrategySettings(server.database.db, STRATEGY);
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => target.close(resolve));
});

describe('notification subscriptions over HTTP', () => {
  describe('works', () => {
    it('creates, lists and deletes your own subscriptions', async () => {
      const watcher = await newWatcher();
      const systemId = await newSystem();
      const toSystem = await watcher.client.notification.createSubscription({
        systemId,
        events: ['incident'],
      });
      expect(toSystem).toMatchObject({ systemId, groupId: null, events: ['incident'] });
      const group = await admin.catalog.createGroup({ name: unique('group') });
      const toGroup = await watcher.client.notification.createSubscription({ groupId: group.id });
      expect(toGroup.events.sort()).toEqual(['health', 'incident', 'maintenance']);
      const everything = await watcher.client.notification.createSubscription({});
      expect(everything).toMatchObject({ systemId: null, groupId: null });
      // Two inserts may share a clock tick (PGlite's clock counts milliseconds): set them apart.
      for (const [second, { id }] of [toSystem, toGroup, everything].entries()) {
        await server.database.db.execute(
          sql`update notification.subscriptions set created_at = ${`2030-01-01T00:00:0${second}Z`} where id = ${id}`,
        );
      }

      const first = await watcher.client.notification.getMySubscriptions({ limit: 2 });
      expect(first.subscriptions.map((item) => item.id)).toEqual([everything.id, toGroup.id]);
      const rest = await watcher.client.notification.getMySubscriptions({
        limit: 2,
        cursor: first.nextCursor!,
      });
      expect(rest.subscriptions.map((item) => item.id)).toEqual([toSystem.id]);
      expect(rest.nextCursor).toBeNull();
      const toThisSystem = await watcher.client.notification.getMySubscriptions({ systemId });
      expect(toThisSystem.subscriptions.map((item) => item.id)).toEqual([toSystem.id]);
      const toAnother = await watcher.client.notification.getMySubscriptions({
        systemId: await newSystem(),
      });
      expect(toAnother.subscriptions).toEqual([]);

      await expect(
        watcher.client.notification.deleteSubscription({ id: toGroup.id }),
      ).resolves.toEqual({ id: toGroup.id, deleted: true });
      const left = await watcher.client.notification.getMySubscriptions({});
      expect(left.subscriptions.map((item) => item.id)).toEqual([everything.id, toSystem.id]);
    });

    it('brings an incident created through REST to a subscriber’s inbox and test channel', async () => {
      const watcher = await newWatcher();
      const systemId = await newSystem();
      await watcher.client.notification.createSubscription({ systemId, events: ['incident'] });
      const incident = await rest('incident/createIncident', {
        title: 'Checkout *fails*',
        severity: 'critical',
        systemIds: [systemId],
      });
      const deliveries = await quiet();

      const inbox = await inboxOf(watcher);
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({
        type: 'incident.created',
        title: 'Incident: Checkout *fails*',
        importance: 'critical',
        action: { label: 'View incident', url: `/incidents/${incident.id}` },
        read: false,
      });
      expect(inbox[0]!.body).toContain('**Checkout \\*fails\\***');
      expect(inbox[0]!.body).toContain('critical, investigating');
      expect(sentTo(watcher)).toHaveLength(1);
      expect(sentTo(watcher)[0]!.notification).toMatchObject({
        title: 'Incident: Checkout *fails*',
      });
      expect(
        deliveries.filter((delivery) => delivery.userId === watcher.id).map((d) => d.status),
      ).toEqual(['sent']);
    });

    it('reaches subscribers of a group holding the system and of everything, once each', async () => {
      const viaGroup = await newWatcher();
      const viaEverything = await newWatcher();
      const systemId = await newSystem();
      const group = await admin.catalog.createGroup({ name: unique('group') });
      await admin.catalog.addSystemToGroup({ groupId: group.id, systemId });
      await viaGroup.client.notification.createSubscription({ groupId: group.id });
      await viaGroup.client.notification.createSubscription({ systemId });
      await viaEverything.client.notification.createSubscription({ events: ['incident'] });
      await rest('incident/createIncident', {
        title: 'Slow pages',
        severity: 'major',
        systemIds: [systemId],
      });
      await quiet();
      for (const watcher of [viaGroup, viaEverything]) {
        const inbox = await inboxOf(watcher);
        expect(inbox.filter((item) => item.title === 'Incident: Slow pages')).toHaveLength(1);
        expect(inbox[0]!.importance).toBe('warning');
      }
    });

    it('holds back a health alert of a system under maintenance: no inbox row, a skipped delivery naming the window', async () => {
      const watcher = await newWatcher();
      const systemId = await newSystem();
      await watcher.client.notification.createSubscription({ systemId, events: ['health'] });
      const window = await rest('maintenance/scheduleWindow', {
        title: 'Database upgrade',
        systemIds: [systemId],
        startAt: new Date(Date.now() - 3_600_000).toISOString(),
        endAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      await makeUnhealthy(systemId);
      // The maintenance ticker may also have announced the window meanwhile (another status change
      // of the system): every alert of it is held back the same way.
      for (const delivery of await heldBack(watcher, await quiet())) {
        expect(delivery.skipReason).toContain('Database upgrade');
        expect(delivery.skipReason).toContain(window.id);
      }
    });

    it('holds back a health alert caused by an unhealthy dependency, naming it in the delivery log', async () => {
      const watcher = await newWatcher();
      const routerId = await newSystem();
      const appId = await newSystem();
      await rest('healthcheck/setSystemDependencies', { systemId: appId, dependsOn: [routerId] });
      await watcher.client.notification.createSubscription({ systemId: appId, events: ['health'] });
      // The router's check fails whatever the shared target answers: nothing listens there.
      const router = await rest('healthcheck/createHealthCheck', {
        systemId: routerId,
        name: 'router',
        type: 'healthcheck.tcp',
        config: { host: '127.0.0.1', port: await closedPort() },
        intervalSeconds: 3_600,
        timeoutMs: 2_000,
      });
      await rest('healthcheck/runHealthCheck', { id: router.id });
      await makeUnhealthy(appId);
      for (const delivery of await heldBack(watcher, await quiet())) {
        expect(delivery.skipReason).toBe(
          `Suppressed: caused by the outage of dependency ${routerId}`,
        );
      }
    });

    it('turns a health status change into a notification whose importance follows the status', async () => {
      const watcher = await newWatcher();
      const systemId = await newSystem();
      await watcher.client.notification.createSubscription({ systemId, events: ['health'] });
      await makeUnhealthy(systemId);
      await quiet();

      const inbox = await inboxOf(watcher);
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({
        type: 'healthcheck.status_changed',
        importance: 'critical',
        action: { label: 'View system', url: `/systems/${systemId}` },
      });
      expect(inbox[0]!.body).toContain('changed from unknown to **unhealthy**');
      expect(sentTo(watcher)).toHaveLength(1);
    });

    it('tells subscribers when an incident is updated and when it is resolved', async () => {
      const watcher = await newWatcher();
      const systemId = await newSystem();
      await watcher.client.notification.createSubscription({ systemId, events: ['incident'] });
      const incident = await rest('incident/createIncident', {
        title: 'Queue backlog',
        severity: 'major',
        systemIds: [systemId],
      });
      await rest('incident/updateIncident', { id: incident.id, status: 'identified' }, 'PATCH');
      await rest('incident/updateIncident', { id: incident.id, status: 'resolved' }, 'PATCH');
      await quiet();
      const inbox = await inboxOf(watcher);
      expect(inbox.map((item) => [item.type, item.importance]).sort()).toEqual([
        ['incident.created', 'warning'],
        ['incident.resolved', 'info'],
        ['incident.updated', 'warning'],
      ]);
    });

    it('announces a maintenance window starting to subscribers of maintenance', async () => {
      const watcher = await newWatcher();
      const systemId = await newSystem();
      await watcher.client.notification.createSubscription({ systemId, events: ['maintenance'] });
      const window = await rest('maintenance/scheduleWindow', {
        title: 'Network swap',
        systemIds: [systemId],
        startAt: new Date(Date.now() - 60_000).toISOString(),
        endAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const maintenance = server.checkline.plugins.find((plugin) => plugin.id === 'maintenance') as
        { tick(): Promise<unknown> } | undefined;
      await maintenance!.tick();
      await quiet();
      const inbox = await inboxOf(watcher);
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({
        type: 'maintenance.started',
        title: 'Maintenance started: Network swap',
        action: { url: `/maintenance/${window.id}` },
      });
    });

    it('creates nothing new for a redelivered event (same id)', async () => {
      const watcher = await newWatcher();
      const systemId = await newSystem();
      await watcher.client.notification.createSubscription({ systemId, events: ['incident'] });
      const incident = await rest('incident/createIncident', {
        title: 'Redelivered',
        severity: 'minor',
        systemIds: [systemId],
      });
      // The watcher's own deliveries: other tests' checks keep changing status in the background.
      const ofWatcher = (deliveries: Delivery[]) =>
        deliveries.filter((delivery) => delivery.userId === watcher.id).map((each) => each.id);
      const before = ofWatcher(await quiet());
      expect(before).toHaveLength(1);
      expect(await inboxOf(watcher)).toHaveLength(1);

      const db = server.database.db;
      const [row] = await db
        .select({ id: eventOutbox.id })
        .from(eventOutbox)
        .where(
          sql`${eventOutbox.type} = 'incident.created' and ${eventOutbox.payload}->>'incidentId' = ${incident.id}`,
        );
      // As if the dispatcher had died before recording the outcome: the event runs again.
      await db
        .update(eventOutbox)
        .set({ dispatchedAt: null, claimedUntil: null })
        .where(sql`${eventOutbox.id} = ${row!.id}`);
      server.checkline.runtime.events.dispatch([row!.id]);
      const after = ofWatcher(await quiet());

      const [redelivered] = await db
        .select({ attempts: eventOutbox.attempts, dispatchedAt: eventOutbox.dispatchedAt })
        .from(eventOutbox)
        .where(sql`${eventOutbox.id} = ${row!.id}`);
      expect(redelivered).toMatchObject({ attempts: 2 });
      expect(redelivered!.dispatchedAt).not.toBeNull();
      expect(await inboxOf(watcher)).toHaveLength(1);
      expect(after).toEqual(before);
      expect(sentTo(watcher)).toHaveLength(1);
    });
  });

  describe('refuses the wrong caller', () => {
    it('gives a subscriber without read access to a team-only system nothing', async () => {
      const outsider = await newWatcher();
      const member = await newWatcher({ inTeam: true });
      const systemId = await teamOnlySystem();
      await outsider.client.notification.createSubscription({ events: ['incident'] });
      await member.client.notification.createSubscription({ events: ['incident'] });
      await rest('incident/createIncident', {
        title: 'Team secret',
        severity: 'critical',
        systemIds: [systemId],
      });
      const deliveries = await quiet();

      expect((await inboxOf(member)).map((item) => item.title)).toEqual(['Incident: Team secret']);
      expect(await inboxOf(outsider)).toEqual([]);
      expect(sentTo(outsider)).toEqual([]);
      expect(deliveries.filter((delivery) => delivery.userId === outsider.id)).toEqual([]);
    });

    it('refuses a subscription to a team-only system outside its team as NOT_FOUND', async () => {
      const outsider = await newWatcher();
      const systemId = await teamOnlySystem();
      await expect(
        outsider.client.notification.createSubscription({ systemId }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('answers NOT_FOUND for deleting another user’s subscription', async () => {
      const owner = await newWatcher();
      const other = await newWatcher();
      const subscription = await owner.client.notification.createSubscription({});
      await expect(
        other.client.notification.deleteSubscription({ id: subscription.id }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      const { subscriptions } = await owner.client.notification.getMySubscriptions({});
      expect(subscriptions.map((item) => item.id)).toEqual([subscription.id]);
    });
  });

  describe('rejects bad input', () => {
    it('answers NOT_FOUND for a system or group that does not exist', async () => {
      const watcher = await newWatcher();
      const missing = '00000000-0000-4000-8000-00000000dead';
      await expect(
        watcher.client.notification.createSubscription({ systemId: missing }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        watcher.client.notification.createSubscription({ groupId: missing }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('answers CONFLICT for a second subscription to the same target, BAD_REQUEST for both targets', async () => {
      const watcher = await newWatcher();
      const systemId = await newSystem();
      await watcher.client.notification.createSubscription({ systemId });
      await expect(
        watcher.client.notification.createSubscription({ systemId, events: ['health'] }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      const group = await admin.catalog.createGroup({ name: unique('group') });
      await expect(
        watcher.client.notification.createSubscription({ systemId, groupId: group.id }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    });
  });
});
