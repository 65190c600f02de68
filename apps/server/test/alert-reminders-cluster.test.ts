import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoopbackServer } from '@checkline/notification-node/testing';
import { startLoopbackServer } from '@checkline/notification-node/testing';
import type { WebhookPayload } from '@checkline/notification-webhook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookWatcherRules } from './support/alert-channels.ts';
import { clusterAdmin, clusterPerFile, clusterSession } from './support/cluster.ts';

/*
 * Issue 22 item 3 on two server processes sharing one PostgreSQL database: both look for due
 * reminders every 100 ms, and each reminder and the escalation still reach the webhook receiver
 * exactly once (counted by delivery id and by reminder number), for a person's subscription and
 * for a team's escalating to another team.
 */
const PASSWORD = 'a sound enough password';
const WAIT_MS = 30_000;

const shared = clusterPerFile({
  size: 2,
  env: {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    REMINDER_MIN_INTERVAL_SECONDS: '1',
    REMINDER_POLL_MS: '100',
  },
});
let receiver: LoopbackServer;
const target = createServer((_request, response) => response.writeHead(500).end('down'));

const signIn = (email: string, password: string) => clusterSession(shared.cluster, email, password);

/** A keyed call through the proxy; throws unless it succeeds. */
async function call(headers: object, pluginId: string, body: Record<string, unknown>) {
  const response = await fetch(`${shared.cluster.url}/api/${pluginId}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(JSON.stringify(answer));
  return answer;
}

/** A system with an hourly http check against the target, which always answers 500. */
async function failingSystem(admin: object, name: string) {
  const { createSystem } = await call(admin, 'catalog', { createSystem: { name } });
  const { createHealthCheck } = await call(admin, 'healthcheck', {
    createHealthCheck: {
      systemId: createSystem.id,
      name: 'Ping',
      type: 'healthcheck.http',
      config: { url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` },
      intervalSeconds: 3_600,
      timeoutMs: 2_000,
    },
  });
  return { systemId: createSystem.id as string, checkId: createHealthCheck.id as string };
}

const payloads = () =>
  receiver.requests.map((request) => JSON.parse(request.body) as WebhookPayload);

async function waitFor(what: string, done: () => boolean) {
  const deadline = Date.now() + WAIT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  receiver = await startLoopbackServer((_request, response) => {
    response.writeHead(200).end('ok');
  });
});
afterAll(async () => {
  await receiver?.close();
  await new Promise((resolve) => target.close(resolve));
}, 60_000);

describe('alert reminders on two processes', () => {
  it('sends each reminder and the escalation exactly once', async () => {
    const admin = await signIn(clusterAdmin.email, clusterAdmin.password);
    await call(admin, 'notification', {
      updateStrategy: {
        strategyId: 'notification-webhook.webhook',
        enabled: true,
        config: { url: `${receiver.url}/alerts`, signingSecret: 'cluster-reminders-secret' },
      },
    });
    const { createRole } = await call(admin, 'auth', {
      createRole: {
        name: 'on-call',
        accessRules: [...webhookWatcherRules],
      },
    });
    const users: Record<string, string> = {};
    for (const name of ['watcher', 'oncall']) {
      const { createUser } = await call(admin, 'auth', {
        createUser: { email: `${name}@example.com`, password: PASSWORD, roleIds: [createRole.id] },
      });
      users[name] = createUser.id as string;
    }
    const watcher = await signIn('watcher@example.com', PASSWORD);
    const { systemId, checkId } = await failingSystem(admin, 'Payments');
    await call(watcher, 'notification', {
      createSubscription: {
        systemId,
        events: ['health'],
        remindEverySeconds: 1,
        escalateAfterSeconds: 2,
        escalateToUserId: users.oncall,
      },
    });
    await call(admin, 'healthcheck', { runHealthCheck: { id: checkId } });

    const reminders = () => payloads().filter((body) => body.title.startsWith('Reminder: '));
    const escalations = () => payloads().filter((body) => body.title.startsWith('Escalated: '));
    await waitFor('4 reminders and an escalation', () => {
      return reminders().length >= 4 && escalations().length >= 1;
    });
    const { getMyAlerts } = await call(watcher, 'notification', { getMyAlerts: {} });
    const [alert] = getMyAlerts.alerts as { id: string }[];
    const { acknowledgeAlert } = await call(watcher, 'notification', {
      acknowledgeAlert: { id: alert!.id },
    });
    expect(acknowledgeAlert.state).toBe('acknowledged');
    const sent = acknowledgeAlert.remindersSent as number;
    // Reminders queued before the acknowledgement are still delivered; then nothing more.
    await waitFor('every queued reminder delivered', () => reminders().length >= sent);
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    const ids = payloads().map((body) => body.id);
    expect(new Set(ids).size).toBe(ids.length);
    const numbers = reminders()
      .map((body) => Number(/\(reminder (\d+)\)/.exec(body.text)?.[1]))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: sent }, (_, index) => index + 1));
    expect(escalations()).toHaveLength(1);
    const { getMyAlerts: after } = await call(watcher, 'notification', { getMyAlerts: {} });
    expect(after.alerts[0]).toMatchObject({ state: 'acknowledged', remindersSent: sent });
  }, 120_000);

  it('sends a team alert’s reminders to each member and its escalation to each member of the second team exactly once', async () => {
    const admin = await signIn(clusterAdmin.email, clusterAdmin.password);
    const { getRoles } = await call(admin, 'auth', { getRoles: { limit: 100 } });
    const role = (getRoles.roles as { id: string; name: string }[]).find(
      (candidate) => candidate.name === 'on-call',
    )!;
    const users: Record<string, string> = {};
    for (const name of ['owner-1', 'owner-2', 'backup']) {
      const { createUser } = await call(admin, 'auth', {
        createUser: { email: `${name}@example.com`, password: PASSWORD, roleIds: [role.id] },
      });
      users[name] = createUser.id as string;
    }
    const teams: Record<string, string> = {};
    for (const [team, members] of [
      ['owners', ['owner-1', 'owner-2']],
      ['backups', ['backup']],
    ] as const) {
      const { createTeam } = await call(admin, 'auth', { createTeam: { name: team } });
      teams[team] = createTeam.id as string;
      for (const member of members) {
        await call(admin, 'auth', {
          addTeamMember: { teamId: createTeam.id, userId: users[member] },
        });
      }
    }
    const { systemId, checkId } = await failingSystem(admin, 'Orders');
    await call(admin, 'notification', {
      createSubscriptionFor: {
        teamId: teams.owners,
        systemId,
        events: ['health'],
        remindEverySeconds: 1,
        escalateAfterSeconds: 2,
        escalateToTeamId: teams.backups,
      },
    });
    await call(admin, 'healthcheck', { runHealthCheck: { id: checkId } });

    const about = () => payloads().filter((body) => body.title.endsWith(': Orders'));
    const titled = (prefix: string) => about().filter((body) => body.title.startsWith(prefix));
    await waitFor('3 reminders to each owner and the escalation', () => {
      return titled('Reminder: ').length >= 6 && titled('Escalated: ').length >= 1;
    });
    // The first alert already carries each owner's acknowledgement link.
    const first = titled('Now unhealthy: ');
    expect(first).toHaveLength(2);
    for (const body of first) expect(body.action?.label).toBe('Acknowledge');
    expect(new Set(first.map((body) => body.action?.url)).size).toBe(2);

    const owner = await signIn('owner-2@example.com', PASSWORD);
    const { getMyAlerts } = await call(owner, 'notification', { getMyAlerts: {} });
    const [alert] = getMyAlerts.alerts as { id: string; teamId: string }[];
    expect(alert!.teamId).toBe(teams.owners);
    const { acknowledgeAlert } = await call(owner, 'notification', {
      acknowledgeAlert: { id: alert!.id },
    });
    expect(acknowledgeAlert.state).toBe('acknowledged');
    const sent = acknowledgeAlert.remindersSent as number;
    await waitFor('every queued reminder delivered', () => titled('Reminder: ').length >= 2 * sent);
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    const ids = about().map((body) => body.id);
    expect(new Set(ids).size).toBe(ids.length);
    const numbers = titled('Reminder: ')
      .map((body) => Number(/\(reminder (\d+)\)/.exec(body.text)?.[1]))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(
      Array.from({ length: sent }, (_, index) => [index + 1, index + 1]).flat(),
    );
    expect(titled('Escalated: ')).toHaveLength(1);
  }, 120_000);
});
