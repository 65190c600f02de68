import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mountedProcedures } from './support/contract-inputs.ts';
import {
  attachedObjects,
  seedTeamWorld,
  startLoopbackTarget,
  type Answer,
  type TeamWorld,
} from './support/team-world.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/**
 * Issue 19 item 8: a team-only system the caller may not see, and everything attached to it,
 * answers exactly as an object that does not exist. Every procedure taking the id of a system
 * (or of a check, window, incident or group attached to one) is called by an outsider holding
 * every monitoring rule, once with the hidden object's id and once with a random id that names
 * nothing; the two answers must be the same byte for byte, but for the id sent itself, and no
 * answer may hold the id or the name of anything hidden the caller did not send.
 */
let server: TestServer;
let world: TeamWorld;
let target: Awaited<ReturnType<typeof startLoopbackTarget>>;

/** The ids one call is made with: all hidden, or all naming nothing. */
interface Ids {
  system: string;
  check: string;
  heartbeat: string;
  window: string;
  incident: string;
  group: string;
  page: string;
}

let hidden: Ids;
let missing: Ids;
/** Visible objects the outsider may change, to name a hidden one beside them. */
let open: { system: string; group: string; window: string; incident: string; team: string };
/** Every id and name of the hidden objects. */
const hiddenWords: string[] = [];

type Input = (ids: Ids) => Record<string, unknown>;

/** Every procedure taking an id of a system or of something attached to one; variants by label. */
const cases: Record<string, Record<string, Input>> = {
  catalog: {
    getSystems: (ids) => ({ ids: [ids.system] }),
    getSystem: (ids) => ({ id: ids.system }),
    updateSystem: (ids) => ({ id: ids.system, description: 'mine now' }),
    deleteSystem: (ids) => ({ id: ids.system }),
    getGroup: (ids) => ({ id: ids.group }),
    getSystemGroups: (ids) => ({ systemId: ids.system }),
    updateGroup: (ids) => ({ id: ids.group, description: 'mine now' }),
    deleteGroup: (ids) => ({ id: ids.group }),
    'addSystemToGroup (system)': (ids) => ({ groupId: open.group, systemId: ids.system }),
    'addSystemToGroup (group)': (ids) => ({ groupId: ids.group, systemId: open.system }),
    'removeSystemFromGroup (system)': (ids) => ({ groupId: open.group, systemId: ids.system }),
    'removeSystemFromGroup (group)': (ids) => ({ groupId: ids.group, systemId: open.system }),
  },
  healthcheck: {
    getHealthChecks: (ids) => ({ systemId: ids.system }),
    createHealthCheck: (ids) => ({
      systemId: ids.system,
      name: 'mine',
      type: 'healthcheck.http',
      config: { url: target.url },
      intervalSeconds: 3_600,
    }),
    updateHealthCheck: (ids) => ({ id: ids.check, name: 'mine now' }),
    deleteHealthCheck: (ids) => ({ id: ids.check }),
    runHealthCheck: (ids) => ({ id: ids.check }),
    getHistory: (ids) => ({ healthCheckId: ids.check }),
    getSystemHealthStatus: (ids) => ({ systemId: ids.system }),
    getBulkSystemHealthStatus: (ids) => ({ systemIds: [ids.system, open.system] }),
    rotateHeartbeatToken: (ids) => ({ id: ids.heartbeat }),
    'setSystemDependencies (system)': (ids) => ({ systemId: ids.system, dependsOn: [] }),
    'setSystemDependencies (dependency)': (ids) => ({
      systemId: open.system,
      dependsOn: [ids.system],
    }),
    getSystemDependencies: (ids) => ({ systemId: ids.system }),
    'getUptime (systems)': (ids) => ({ systemIds: [ids.system, open.system] }),
    'getUptime (checks)': (ids) => ({ healthCheckIds: [ids.check] }),
    getRollups: (ids) => ({ healthCheckId: ids.check, window: '24h' }),
    getDailyUptime: (ids) => ({ systemIds: [ids.system, open.system] }),
  },
  statuspage: {
    getPage: (ids) => ({ id: ids.page }),
    createPage: (ids) => ({
      slug: 'mine',
      title: 'mine',
      sections: [
        { title: 'x', items: [{ kind: 'system', systemId: ids.system, displayName: 'x' }] },
      ],
    }),
    updatePage: (ids) => ({ id: ids.page, title: 'mine now' }),
    deletePage: (ids) => ({ id: ids.page }),
    publishPage: (ids) => ({ id: ids.page }),
    unpublishPage: (ids) => ({ id: ids.page }),
    getSubscribers: (ids) => ({ pageId: ids.page }),
    // The page decides; any subscriber id would do.
    deleteSubscriber: (ids) => ({ pageId: ids.page, id: ids.page }),
  },
  maintenance: {
    getWindows: (ids) => ({ systemId: ids.system, includePast: true }),
    getBulkActiveWindows: (ids) => ({ systemIds: [ids.system, open.system] }),
    scheduleWindow: (ids) => ({
      title: 'mine',
      systemIds: [ids.system],
      startAt: new Date(Date.now() + 3_600_000).toISOString(),
      endAt: new Date(Date.now() + 7_200_000).toISOString(),
    }),
    updateWindow: (ids) => ({ id: ids.window, title: 'mine now' }),
    'updateWindow (systems)': (ids) => ({ id: open.window, systemIds: [open.system, ids.system] }),
    deleteWindow: (ids) => ({ id: ids.window }),
  },
  incident: {
    getIncidents: (ids) => ({ systemId: ids.system }),
    listIncidents: (ids) => ({ systemId: ids.system, includeResolved: true }),
    getIncident: (ids) => ({ id: ids.incident }),
    createIncident: (ids) => ({ title: 'mine', severity: 'minor', systemIds: [ids.system] }),
    updateIncident: (ids) => ({ id: ids.incident, message: 'mine now' }),
    'updateIncident (systems)': (ids) => ({
      id: open.incident,
      systemIds: [open.system, ids.system],
    }),
    deleteIncident: (ids) => ({ id: ids.incident }),
  },
  notification: {
    getMySubscriptions: (ids) => ({ systemId: ids.system }),
    'createSubscription (system)': (ids) => ({ systemId: ids.system }),
    'createSubscription (group)': (ids) => ({ groupId: ids.group }),
    'createSubscriptionFor (system)': (ids) => ({ teamId: open.team, systemId: ids.system }),
    'createSubscriptionFor (group)': (ids) => ({ teamId: open.team, groupId: ids.group }),
  },
};

/** Input fields that hold the id of a system or of something attached to one. */
const idFields = [
  'id',
  'ids',
  'systemId',
  'systemIds',
  'dependsOn',
  'healthCheckId',
  'healthCheckIds',
  'groupId',
  'pageId',
];

/** Procedures with such a field whose ids name nothing attached to a system, and why. */
const unrelated: Record<string, string> = {
  'notification.markAsRead': "ids of the caller's own notifications",
  'notification.deleteNotification': "the caller's own notification",
  'notification.deleteSubscription': "the caller's own subscription",
  'notification.acknowledgeAlert': "the caller's own alert",
  'notification.updateSubscription': "the caller's own subscription (any, routing alerts)",
  'notification.getDeliveries': 'the delivery log: notification.strategy.manage governs it',
  'notification.redeliver': 'a delivery of the log: notification.strategy.manage governs it',
  'notification.notifyUsers': 'addressed to users',
  'notification.sendExternal': 'addressed to users',
  'notification.sendTransactional': 'addressed to one user',
};

const procedureOf = (label: string) => label.split(' ')[0]!;

beforeAll(async () => {
  target = await startLoopbackTarget();
  server = await createTestServer();
  world = await seedTeamWorld(server);
  const system = await world.hiddenSystem();
  const objects = attachedObjects(world, system, target.url);
  const { createHealthCheck: heartbeat } = await world.asAdmin('healthcheck', {
    createHealthCheck: { ...objects.checkInput(), type: 'healthcheck.heartbeat', config: {} },
  });
  hidden = {
    system,
    check: await objects.check(),
    heartbeat: heartbeat.id,
    window: await objects.window(),
    incident: await objects.incident(),
    group: await objects.group(),
    page: await objects.page(),
  };
  missing = {
    system: randomUUID(),
    check: randomUUID(),
    heartbeat: randomUUID(),
    window: randomUUID(),
    incident: randomUUID(),
    group: randomUUID(),
    page: randomUUID(),
  };
  const openSystem = await world.openSystem();
  const visible = attachedObjects(world, openSystem, target.url);
  open = {
    system: openSystem,
    group: await visible.group(),
    window: await visible.window(),
    incident: await visible.incident(),
    team: await world.newTeam(),
  };
  // The visible system depends on the hidden one, which the outsider must not learn or undo.
  await world.asAdmin('healthcheck', {
    setSystemDependencies: { systemId: openSystem, dependsOn: [system] },
  });
  const { getSystem } = await world.asAdmin('catalog', { getSystem: { id: system } });
  hiddenWords.push(...Object.values(hidden), getSystem.name);
});
afterAll(async () => {
  await server.close();
  await target.close();
});

/** The answer as text, with the ids the caller sent replaced and the request id left out. */
function normalised(answer: Answer, sent: Ids): string {
  const { requestId: _requestId, ...body } = answer.body as Record<string, unknown>;
  let text = JSON.stringify({ status: answer.status, body });
  for (const [kind, id] of Object.entries(sent)) text = text.replaceAll(id, `<${kind}>`);
  return text;
}

async function ask(pluginId: string, label: string, ids: Ids) {
  const input = cases[pluginId]![label]!(ids);
  return world.call('outsider', pluginId, { [procedureOf(label)]: input });
}

describe('a hidden object answers as one that does not exist', () => {
  it('covers every procedure taking an id of a system or of something attached to one', () => {
    const covered = new Set(
      Object.entries(cases).flatMap(([pluginId, labels]) =>
        Object.keys(labels).map((label) => `${pluginId}.${procedureOf(label)}`),
      ),
    );
    const uncovered = mountedProcedures(server.checkline.plugins)
      .filter(({ pluginId }) => pluginId !== 'auth')
      .filter(({ definition }) => {
        const schema = definition.inputSchema;
        if (!(schema instanceof z.ZodObject)) return false;
        return Object.keys(schema.shape).some((field) => idFields.includes(field));
      })
      .map(({ pluginId, name }) => `${pluginId}.${name}`)
      .filter((label) => !covered.has(label) && !(label in unrelated));
    expect(uncovered).toEqual([]);
  });

  for (const [pluginId, labels] of Object.entries(cases)) {
    for (const label of Object.keys(labels)) {
      it(`${pluginId}.${label}: the same answer for a hidden id and a missing one, naming nothing hidden`, async () => {
        const forHidden = await ask(pluginId, label, hidden);
        const forMissing = await ask(pluginId, label, missing);
        expect(normalised(forHidden, hidden)).toEqual(normalised(forMissing, missing));
        const shown = normalised(forHidden, hidden);
        expect(hiddenWords.filter((word) => shown.includes(word))).toEqual([]);
      });
    }
  }
});

describe('dependencies on a hidden system', () => {
  it('are not listed to the outsider, and survive its change of the visible system', async () => {
    const listed = await world.call('outsider', 'healthcheck', {
      getSystemDependencies: { systemId: open.system },
    });
    expect(listed).toMatchObject({
      status: 200,
      body: { getSystemDependencies: { dependsOn: [] } },
    });
    const other = await world.openSystem();
    const set = await world.call('outsider', 'healthcheck', {
      setSystemDependencies: { systemId: open.system, dependsOn: [other] },
    });
    expect(set).toMatchObject({
      status: 200,
      body: { setSystemDependencies: { dependsOn: [other] } },
    });
    const { getSystemDependencies } = await world.asAdmin('healthcheck', {
      getSystemDependencies: { systemId: open.system },
    });
    expect([...getSystemDependencies.dependsOn].sort()).toEqual([hidden.system, other].sort());
  });

  it('refuse a cycle through a hidden system without naming it', async () => {
    // open → hidden already; hidden → second makes `second → open` close open → hidden → second → open.
    const second = await world.openSystem();
    await world.asAdmin('healthcheck', {
      setSystemDependencies: { systemId: hidden.system, dependsOn: [second] },
    });
    const answer = await world.call('outsider', 'healthcheck', {
      setSystemDependencies: { systemId: second, dependsOn: [open.system] },
    });
    expect(answer).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    expect(answer.body.message).toMatch(/^Dependency cycle: /);
    expect(hiddenWords.filter((word) => JSON.stringify(answer.body).includes(word))).toEqual([]);
    const holder = await world.call('holder', 'healthcheck', {
      setSystemDependencies: { systemId: second, dependsOn: [open.system] },
    });
    expect(holder.body.message).toContain(hidden.system);
  });
});
