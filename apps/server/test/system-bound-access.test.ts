import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountedProcedures } from './support/contract-inputs.ts';
import {
  attachedObjects,
  seedTeamWorld,
  startLoopbackTarget,
  type Answer,
  type CallerName,
  type TeamWorld,
} from './support/team-world.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/**
 * Issue 8.2, team access reaches everything attached to a system (docs/security.md): every procedure of
 * every contract is classified; each one that takes or returns something bound to a system is
 * called over HTTP against a team-only system by the holder of a team grant, an outsider holding
 * the same rules, and an admin. The holder and the admin succeed; the outsider sees nothing of it:
 * lists leave it out and everything else answers NOT_FOUND, as for an object that does not exist.
 */
let server: TestServer;
let world: TeamWorld;
let target: Awaited<ReturnType<typeof startLoopbackTarget>>;
let hidden: string;
let objects: ReturnType<typeof attachedObjects>;
/** One object of each kind attached to the team-only system, made by the admin. */
let bound: {
  group: string;
  check: string;
  window: string;
  incident: string;
  page: string;
  /** Each caller's own subscription to a system made team-only after they subscribed. */
  subscription: Record<CallerName, string>;
};

type Input = Record<string, unknown>;
type Case =
  /** A list: its `field` holds the bound object (found by `key`, default `id`) for those who may see it. */
  | {
      kind: 'list';
      input: () => Input;
      field: string;
      key?: string;
      /** The bound object the caller may see (its own, for per-user lists). */
      expected: (caller: CallerName) => string;
    }
  /** A read of the bound object: NOT_FOUND for the outsider. */
  | { kind: 'read'; input: () => Input }
  /** A change to a bound object (fresh for every caller): NOT_FOUND for the outsider. */
  | { kind: 'change'; input: () => Promise<Input> }
  /** A create or attach naming the team-only system: NOT_FOUND for the outsider. */
  | { kind: 'attach'; input: () => Promise<Input> };

/** Procedures that take and return nothing bound to a system, and why. */
const unbound: Record<string, Record<string, string>> = {
  notification: {
    notifyUsers: 'addressed to users; subscriptions decide who hears about a system',
    sendExternal: 'addressed to users; subscriptions decide who hears about a system',
    sendTransactional: 'addressed to one user',
    sendToAddress:
      'to an address no account owns; only other plugins (the service principal) call it',
    getNotifications: "the caller's own inbox: written only for users who could read the system",
    getUnreadCount: "the caller's own inbox",
    markAsRead: "the caller's own inbox",
    deleteNotification: "the caller's own inbox",
    streamNotifications: "the caller's own inbox",
    getMyChannels: "the caller's own channels",
    updateMyChannel: "the caller's own channels",
    deleteSubscription:
      'ends the caller’s own subscription (any, routing alerts), whatever the system has become',
    updateSubscription:
      'changes the events of the caller’s own subscription (any, routing alerts), no system named',
    getMyAlerts:
      "the caller's own alerts: opened only for systems they could read, closed when a reminder finds they no longer can",
    acknowledgeAlert:
      "the caller's own alert (another's is NOT_FOUND), whatever the system has become",
    getStrategies: 'channel settings: notification.strategy.manage governs them',
    updateStrategy: 'channel settings: notification.strategy.manage governs them',
    sendTestNotification: 'to the calling admin',
    getDeliveries: 'the delivery log: notification.strategy.manage governs it',
    redeliver: 'the delivery log: notification.strategy.manage governs it',
    previewNotification:
      'renders a message for a channel, no system: notification.strategy.manage governs it',
  },
  catalog: {
    createSystem: 'a new system has no grants yet',
    createGroup: 'a new group has no member system',
  },
  statuspage: {
    getPublicPage:
      'the anonymous read of a published page: publishing it needed reach of its team-only systems',
  },
  healthcheck: {
    getHealthCheckTypes: 'lists check types',
    getSchedulerStatus: 'counts and lag of the schedulers, no system named (healthcheck.manage)',
  },
  auth: Object.fromEntries(
    [
      'getMe',
      'changeMyPassword',
      'getRegistrationStatus',
      'getLoginStrategies',
      'updateRegistrationStatus',
      'getUsers',
      'getUserProfiles',
      'getApplicationProfiles',
      'getTeamUsers',
      'createUser',
      'updateUser',
      'deleteUser',
      'getApplications',
      'createApplication',
      'updateApplication',
      'deleteApplication',
      'regenerateApplicationSecret',
      'getAccessRules',
      'getRoles',
      'createRole',
      'updateRole',
      'deleteRole',
      'getTeams',
      'createTeam',
      'updateTeam',
      'deleteTeam',
      'addTeamMember',
      'removeTeamMember',
      'getResourceAccess',
      'updateResourceAccess',
      'getAuditLog',
    ].map((name) => [name, 'principals, roles, teams and grants: auth.* rules govern them']),
  ),
};

const cases: Record<string, Record<string, Case>> = {
  catalog: {
    getSystems: { kind: 'list', input: () => ({}), field: 'systems', expected: () => hidden },
    getSystem: { kind: 'read', input: () => ({ id: hidden }) },
    updateSystem: { kind: 'change', input: async () => ({ id: hidden, description: 'ours' }) },
    deleteSystem: { kind: 'change', input: async () => ({ id: await world.hiddenSystem() }) },
    getGroups: { kind: 'list', input: () => ({}), field: 'groups', expected: () => bound.group },
    getGroup: { kind: 'read', input: () => ({ id: bound.group }) },
    getSystemGroups: { kind: 'read', input: () => ({ systemId: hidden }) },
    updateGroup: {
      kind: 'change',
      input: async () => ({ id: await objects.group(), name: `g-${world.unique()}` }),
    },
    deleteGroup: { kind: 'change', input: async () => ({ id: await objects.group() }) },
    addSystemToGroup: {
      kind: 'attach',
      input: async () => ({ groupId: await objects.emptyGroup(), systemId: hidden }),
    },
    removeSystemFromGroup: {
      kind: 'change',
      input: async () => ({ groupId: await objects.group(), systemId: hidden }),
    },
  },
  healthcheck: {
    getHealthChecks: {
      kind: 'list',
      input: () => ({}),
      field: 'healthChecks',
      expected: () => bound.check,
    },
    createHealthCheck: { kind: 'attach', input: async () => objects.checkInput() },
    updateHealthCheck: {
      kind: 'change',
      input: async () => ({ id: await objects.check(), name: `c-${world.unique()}` }),
    },
    deleteHealthCheck: { kind: 'change', input: async () => ({ id: await objects.check() }) },
    runHealthCheck: { kind: 'change', input: async () => ({ id: bound.check }) },
    getHistory: { kind: 'read', input: () => ({ healthCheckId: bound.check }) },
    getSystemHealthStatus: { kind: 'read', input: () => ({ systemId: hidden }) },
    getBulkSystemHealthStatus: {
      kind: 'list',
      input: () => ({ systemIds: [hidden] }),
      field: 'statuses',
      key: 'systemId',
      expected: () => hidden,
    },
    rotateHeartbeatToken: {
      kind: 'change',
      input: async () => {
        const input = { ...objects.checkInput(), type: 'healthcheck.heartbeat', config: {} };
        const { createHealthCheck } = await world.asAdmin('healthcheck', {
          createHealthCheck: input,
        });
        return { id: createHealthCheck.id };
      },
    },
    setSystemDependencies: {
      kind: 'attach',
      input: async () => ({ systemId: await world.openSystem(), dependsOn: [hidden] }),
    },
    getSystemDependencies: { kind: 'read', input: () => ({ systemId: hidden }) },
    getUptime: { kind: 'read', input: () => ({ systemIds: [hidden] }) },
    getRollups: { kind: 'read', input: () => ({ healthCheckId: bound.check, window: '24h' }) },
    getDailyUptime: {
      kind: 'list',
      input: () => ({ systemIds: [hidden] }),
      field: 'systems',
      key: 'systemId',
      expected: () => hidden,
    },
  },
  statuspage: {
    getPages: { kind: 'list', input: () => ({}), field: 'pages', expected: () => bound.page },
    getPage: { kind: 'read', input: () => ({ id: bound.page }) },
    createPage: { kind: 'attach', input: async () => objects.pageInput() },
    updatePage: {
      kind: 'change',
      input: async () => ({ id: await objects.page(), title: 'ours' }),
    },
    deletePage: { kind: 'change', input: async () => ({ id: await objects.page() }) },
    publishPage: { kind: 'change', input: async () => ({ id: await objects.page() }) },
    unpublishPage: { kind: 'change', input: async () => ({ id: await objects.page() }) },
    getSubscribers: { kind: 'read', input: () => ({ pageId: bound.page }) },
    deleteSubscriber: {
      kind: 'change',
      input: async () => {
        const pageId = await objects.page();
        return { pageId, id: await subscriberOf(pageId) };
      },
    },
  },
  maintenance: {
    getWindows: { kind: 'list', input: () => ({}), field: 'windows', expected: () => bound.window },
    getBulkActiveWindows: {
      kind: 'list',
      input: () => ({ systemIds: [hidden] }),
      field: 'windows',
      expected: () => bound.window,
    },
    scheduleWindow: { kind: 'attach', input: async () => objects.windowInput() },
    updateWindow: {
      kind: 'change',
      input: async () => ({ id: await objects.window(), title: 'ours' }),
    },
    deleteWindow: { kind: 'change', input: async () => ({ id: await objects.window() }) },
  },
  notification: {
    getMySubscriptions: {
      kind: 'list',
      input: () => ({}),
      field: 'subscriptions',
      expected: (caller) => bound.subscription[caller],
    },
    createSubscription: { kind: 'attach', input: async () => ({ systemId: hidden }) },
    getSubscriptions: {
      kind: 'list',
      input: () => ({ limit: 1_000 }),
      field: 'subscriptions',
      expected: (caller) => bound.subscription[caller],
    },
    createSubscriptionFor: {
      kind: 'attach',
      input: async () => ({ teamId: await world.newTeam(), systemId: hidden }),
    },
  },
  incident: {
    getIncidents: {
      kind: 'list',
      input: () => ({}),
      field: 'incidents',
      expected: () => bound.incident,
    },
    listIncidents: {
      kind: 'list',
      input: () => ({}),
      field: 'incidents',
      expected: () => bound.incident,
    },
    getIncident: { kind: 'read', input: () => ({ id: bound.incident }) },
    createIncident: { kind: 'attach', input: async () => objects.incidentInput() },
    updateIncident: {
      kind: 'change',
      input: async () => ({ id: await objects.incident(), message: 'looking' }),
    },
    deleteIncident: { kind: 'change', input: async () => ({ id: await objects.incident() }) },
  },
};

beforeAll(async () => {
  target = await startLoopbackTarget();
  server = await createTestServer();
  world = await seedTeamWorld(server);
  hidden = await world.hiddenSystem();
  objects = attachedObjects(world, hidden, target.url);
  bound = {
    group: await objects.group(),
    check: await objects.check(),
    window: await objects.window(),
    incident: await objects.incident(),
    page: await objects.page(),
    subscription: await subscribedThenHidden(),
  };
});
afterAll(async () => {
  await server.close();
  await target.close();
});

/** Each caller subscribes to an open system, which then becomes team-only: their subscription ids. */
async function subscribedThenHidden(): Promise<Record<CallerName, string>> {
  const system = await world.openSystem();
  const ids = {} as Record<CallerName, string>;
  for (const caller of ['holder', 'outsider', 'admin'] as const) {
    const answer = await world.call(caller, 'notification', {
      createSubscription: { systemId: system },
    });
    if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    ids[caller] = answer.body.createSubscription.id;
  }
  await world.restrict(system);
  return ids;
}

/** A confirmed subscriber of the page, written straight to the table (no mail is involved). */
async function subscriberOf(pageId: string): Promise<string> {
  const rows = await queryRows<{ id: string }>(
    server.database.db,
    sql`insert into statuspage.subscribers (page_id, email, status)
        values (${pageId}, ${`s${world.unique()}@example.net`}, 'confirmed') returning id`,
  );
  return rows[0]!.id;
}

const everyProcedure = () => mountedProcedures(server.checkline.plugins);

const callers: CallerName[] = ['holder', 'outsider', 'admin'];

/** A NOT_FOUND that names one of the ids the caller sent, exactly as for a missing object. */
function expectNotFound(answer: Answer, input: Input, what: string) {
  expect({ what, status: answer.status, code: answer.body.code }).toEqual({
    what,
    status: 404,
    code: 'NOT_FOUND',
  });
  const named = /^[A-Z][a-z ]+ ([0-9a-f-]{36}) not found$/.exec(answer.body.message)?.[1];
  expect(JSON.stringify(input), `${what}: ${answer.body.message}`).toContain(named ?? '(no id)');
}

async function check(pluginId: string, name: string, spec: Case, caller: CallerName) {
  const what = `${caller} ${pluginId}.${name}`;
  const input = spec.kind === 'list' || spec.kind === 'read' ? spec.input() : await spec.input();
  const answer = await world.call(caller, pluginId, { [name]: input });
  const allowed = caller !== 'outsider';
  if (spec.kind === 'list') {
    expect({ what, status: answer.status }).toEqual({ what, status: 200 });
    const items = (answer.body[name][spec.field] ?? []) as Record<string, unknown>[];
    const keys = items.map((item) => item[spec.key ?? 'id']);
    if (allowed) expect(keys, what).toContain(spec.expected(caller));
    else expect(keys, what).not.toContain(spec.expected(caller));
    return;
  }
  if (allowed) {
    expect({ what, status: answer.status, body: answer.body }).toMatchObject({ what, status: 200 });
  } else {
    expectNotFound(answer, input, what);
  }
}

describe('team access to everything attached to a team-only system', () => {
  it('classifies every procedure of every contract', () => {
    const unclassified = everyProcedure().filter(
      ({ pluginId, name }) => !cases[pluginId]?.[name] && !unbound[pluginId]?.[name],
    );
    expect(unclassified).toEqual([]);
  });

  for (const caller of callers) {
    it(`answers the ${caller} as the team-access rule says, for every system-bound procedure`, async () => {
      for (const { pluginId, name } of everyProcedure()) {
        const spec = cases[pluginId]?.[name];
        if (spec) await check(pluginId, name, spec, caller);
      }
    });
  }
});

describe('objects attached to several systems', () => {
  it('show the outsider one attached to a system it may see, without the hidden system', async () => {
    const open = await world.openSystem();
    const { createIncident } = await world.asAdmin('incident', {
      createIncident: { title: 'both', severity: 'major', systemIds: [hidden, open] },
    });
    const seen = await world.call('outsider', 'incident', {
      getIncident: { id: createIncident.id },
      getIncidents: {},
    });
    expect(seen.status).toBe(200);
    expect(seen.body.getIncident.systemIds).toEqual([open]);
    const listed = seen.body.getIncidents.incidents.find(
      (incident: { id: string }) => incident.id === createIncident.id,
    );
    expect(listed.systemIds).toEqual([open]);
    const change = await world.call('outsider', 'incident', {
      updateIncident: { id: createIncident.id, message: 'not mine to say' },
    });
    expect(change).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    const holder = await world.call('holder', 'incident', {
      updateIncident: { id: createIncident.id, message: 'ours to say' },
    });
    expect(holder.status).toBe(200);
    expect(holder.body.updateIncident.systemIds.sort()).toEqual([hidden, open].sort());
  });

  it('list in listIncidents only the incidents the caller may see', async () => {
    const input = { listIncidents: { includeResolved: true, limit: 100 } };
    const outsider = await world.call('outsider', 'incident', input);
    const admin = await world.call('admin', 'incident', input);
    const ids = (answer: typeof outsider) =>
      answer.body.listIncidents.incidents.map((incident: { id: string }) => incident.id);
    expect(ids(outsider)).not.toContain(bound.incident);
    expect(ids(admin)).toContain(bound.incident);
  });

  it('refuse the outsider a move of a visible object onto the team-only system', async () => {
    const open = await world.openSystem();
    const { scheduleWindow } = await world.asAdmin('maintenance', {
      scheduleWindow: { ...objects.windowInput(), systemIds: [open] },
    });
    const moved = await world.call('outsider', 'maintenance', {
      updateWindow: { id: scheduleWindow.id, systemIds: [open, hidden] },
    });
    expect(moved).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: `System ${hidden} not found` },
    });
  });
});
