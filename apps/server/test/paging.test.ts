import { definePlugin } from '@checkline/core';
import {
  defineHealthCheckType,
  healthCheckTypeExtensionPoint,
} from '@checkline/healthcheck/check-kit';
import type { AnyContractProcedure } from '@orpc/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testChannelPlugin, testStrategy } from '@checkline/notification/testing';
import { createPlugins } from '../src/plugins.ts';
import { mountedProcedures } from './support/contract-inputs.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Paging (docs/api.md): every list that can grow with use takes `limit` (default 100, at most 1000) and
 * `cursor`, and answers `nextCursor` (null at the end). A list procedure is a query whose output
 * has a field holding an array of objects (arrays of plain values, such as tags or member ids,
 * belong to one resource); mutations answer the one resource they changed and are not lists.
 */

/** Queries with an array of objects in their output that are not lists that grow, and why. */
const exempt: Record<string, string> = {
  'auth.getAccessRules': 'a fixed set, registered by the mounted plugins at start-up',
  'auth.getLoginStrategies': 'a fixed set, registered by the mounted plugins at start-up',
  'auth.getUserProfiles': 'one profile per user asked (at most 10 000); for plugins only',
  'auth.getTeamUsers': 'one entry per team asked (at most 1 000); for plugins only',
  'auth.getApplicationProfiles':
    'one profile per application asked (at most 10 000); for plugins only',
  'auth.getResourceAccess': 'one resource; its grants are bounded (200) by updateResourceAccess',
  'healthcheck.getHealthCheckTypes': 'a fixed set, registered by plugins at start-up',
  'healthcheck.getSystemHealthStatus': 'one system; its status needs every one of its checks',
  'healthcheck.getBulkSystemHealthStatus': 'one status per system asked, at most 500 asked',
  'healthcheck.getSchedulerStatus': 'one entry per server process that ran checks in the window',
  'healthcheck.getUptime':
    'one entry per system asked and per check of them (or per check asked), at most 500 asked',
  'healthcheck.getRollups':
    'one bucket per hour (at most 169) or per day (at most 91) of one check',
  'healthcheck.getDailyUptime':
    'one entry per system asked (at most 500), each with one entry per day (at most 90)',
  'maintenance.getBulkActiveWindows':
    'windows active right now over at most 500 systems asked; health status needs all of them',
  'incident.getIncident': 'one incident; its timeline is part of the resource',
  'notification.getStrategies': 'a fixed set, registered by plugins at start-up',
  'notification.getMyChannels': 'at most one per registered strategy',
  'statuspage.getPage': 'one page; its sections and their items are bounded by the page schema',
  'statuspage.getPublicPage':
    'one published page: its bounded sections, and the incidents and windows read up to a cap',
};

const PAGE = 2;
const MAX_PAGES = 50;

let server: TestServer;
let adminKey: string;
/** The admin's session: user-only lists (their inbox, subscriptions) are read with it. */
let adminSession: Record<string, string>;
/** A second admin's session: another caller, to whom no cursor of the first may open. */
let otherAdminSession: Record<string, string>;

const noopType = defineHealthCheckType({
  id: 'noop',
  displayName: 'No-op',
  config: z.object({}),
  run: async () => ({ status: 'pass', latencyMs: 0, message: 'ok' }),
});

/** A notification channel that delivers nowhere, so the delivery log can be seeded. */
const pagingChannel = testChannelPlugin('paging-channel', [testStrategy({ id: 'noop' })]);

/** Registers a check type that never touches the network, so history can be seeded by runs. */
const pagingPlugin = definePlugin({
  id: 'paging',
  description: 'Test plugin registering a check type that never touches the network.',
  contract: {},
  router: {},
  accessRules: [],
  register(api) {
    api.extensionPoints.get(healthCheckTypeExtensionPoint, api.pluginId).register(noopType);
  },
});

/** A keyed call with a key, or with a session's headers. */
async function call(
  pluginId: string,
  body: Record<string, unknown>,
  key: string | Record<string, string> = adminKey,
) {
  const response =
    typeof key === 'string'
      ? await server.keyed(pluginId, body, key)
      : await server.request(`/api/${pluginId}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...key },
          body: JSON.stringify(body),
        });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

const times = <T>(n: number, make: (i: number) => Promise<T>) =>
  Array.from({ length: n }, (_, i) => i).reduce<Promise<T[]>>(
    async (done, i) => [...(await done), await make(i)],
    Promise.resolve([]),
  );

/** Waits (bounded) until the admin holds `count` alerts: events reach subscriptions after commit. */
async function alertsOpened(count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { getMyAlerts } = await call(
      'notification',
      { getMyAlerts: { limit: 100 } },
      adminSession,
    );
    if (getMyAlerts.alerts.length >= count) return;
    if (Date.now() > deadline) throw new Error(`no ${count} alerts within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The inputs each list needs besides paging, filled once the rows are seeded. */
const listInputs: Record<string, Record<string, unknown>> = {};

async function seed() {
  const { createSystem: system } = await call('catalog', { createSystem: { name: 'paging-0' } });
  await times(4, (i) => call('catalog', { createSystem: { name: `paging-${i + 1}` } }));
  const groups = await times(3, (i) => call('catalog', { createGroup: { name: `group-${i}` } }));
  for (const { createGroup } of groups) {
    await call('catalog', { addSystemToGroup: { groupId: createGroup.id, systemId: system.id } });
  }
  const checks = await times(3, (i) =>
    call('healthcheck', {
      createHealthCheck: {
        systemId: system.id,
        name: `check-${i}`,
        type: 'paging.noop',
        intervalSeconds: 86_400,
      },
    }),
  );
  const checkId = checks[0]!.createHealthCheck.id as string;
  await times(3, () => call('healthcheck', { runHealthCheck: { id: checkId } }));
  const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  await times(3, (i) =>
    call('maintenance', {
      scheduleWindow: {
        title: `window-${i}`,
        systemIds: [system.id],
        startAt: later(i + 1),
        endAt: later(i + 2),
      },
    }),
  );
  // Each incident opens an alert for this subscription (notification.getMyAlerts).
  await call(
    'notification',
    { createSubscription: { events: ['incident'], remindEverySeconds: 3_600 } },
    adminSession,
  );
  await times(3, (i) =>
    call('incident', {
      createIncident: { title: `incident-${i}`, severity: 'minor', systemIds: [system.id] },
    }),
  );
  await alertsOpened(3);
  await times(2, (i) =>
    call('auth', {
      createUser: { email: `user-${i}@example.com`, password: 'a long enough password 1' },
    }),
  );
  await times(2, (i) => call('auth', { createApplication: { name: `app-${i}` } }));
  await times(2, (i) => call('auth', { createRole: { name: `role-${i}`, accessRules: [] } }));
  await times(3, (i) => call('auth', { createTeam: { name: `team-${i}` } }));
  const { getMe: admin } = await call('auth', { getMe: {} }, adminSession);
  await times(3, (i) =>
    call('notification', {
      notifyUsers: {
        userIds: [admin.id],
        notification: { title: `note-${i}`, type: 'paging.note' },
      },
    }),
  );
  await call('notification', {
    updateStrategy: { strategyId: 'paging-channel.noop', enabled: true, config: {} },
  });
  await times(3, (i) =>
    call('notification', {
      sendExternal: {
        userIds: [admin.id],
        strategyId: 'paging-channel.noop',
        notification: { title: `external-${i}`, type: 'paging.note' },
      },
    }),
  );
  const pages = await times(3, (i) =>
    call('statuspage', { createPage: { slug: `page-${i}`, title: `Page ${i}` } }),
  );
  const pageId = pages[0]!.createPage.id as string;
  // Subscribers come through anonymous routes and mail; written straight to their table here.
  await times(3, (i) =>
    server.database.db.execute(
      sql`insert into statuspage.subscribers (page_id, email) values (${pageId}, ${`s-${i}@example.net`})`,
    ),
  );
  const { getSystems } = await call('catalog', { getSystems: {} });
  await times(3, (i) =>
    call(
      'notification',
      { createSubscription: { systemId: getSystems.systems[i].id } },
      adminSession,
    ),
  );
  Object.assign(listInputs, {
    'catalog.getSystemGroups': { systemId: system.id },
    'healthcheck.getHistory': { healthCheckId: checkId },
    'statuspage.getSubscribers': { pageId },
  });
}

beforeAll(async () => {
  server = await createTestServer({
    plugins: [...createPlugins(testEnv), pagingPlugin, pagingChannel],
    scheduledChecks: false,
  });
  // An admin key, so the keyed and REST surfaces are driven the same way.
  const session = await server.adminSession();
  adminSession = session;
  const asSession = async (body: Record<string, unknown>) => {
    const response = await server.request('/api/auth/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...session },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, any>;
  };
  const { getRoles } = await asSession({ getRoles: { limit: 1000 } });
  const adminRole = getRoles.roles.find((role: { name: string }) => role.name === 'admin');
  const { createApplication } = await asSession({ createApplication: { name: 'paging-admin' } });
  await asSession({
    updateApplication: { id: createApplication.application.id, roleIds: [adminRole.id] },
  });
  adminKey = createApplication.secret;
  const other = { email: 'other-admin@example.com', password: 'another admin password 1' };
  await asSession({ createUser: { ...other, roleIds: [adminRole.id] } });
  otherAdminSession = await server.sessionOf(other.email, other.password);
  await seed();
});
afterAll(async () => {
  await server.close();
});

interface ListProcedure {
  pluginId: string;
  name: string;
  arrayField: string;
  procedure: AnyContractProcedure;
  /**
   * Read in the admin's session: only signed-in users may call it (their own inbox), or it lists
   * the caller's own rows, which the seed writes in that session (`getMy*`: subscriptions).
   */
  usersOnly?: boolean;
}

const shapeOf = (schema: unknown) => (schema as z.ZodObject).shape;

/** Every query of every mounted plugin whose output holds an array of objects. */
function queriesWithArrays(): ListProcedure[] {
  return mountedProcedures(server.checkline.plugins).flatMap(
    ({ pluginId, name, procedure, definition, meta }) => {
      // A stream's output is an event iterator, not a page.
      if (meta.kind !== 'query' || !(definition.outputSchema instanceof z.ZodObject)) return [];
      const arrayField = Object.entries(shapeOf(definition.outputSchema)).find(
        ([, field]) => field instanceof z.ZodArray && field.element instanceof z.ZodObject,
      )?.[0];
      const usersOnly = !meta.principals.includes('application') || name.startsWith('getMy');
      return arrayField ? [{ pluginId, name, arrayField, procedure, usersOnly }] : [];
    },
  );
}

const listProcedures = () =>
  queriesWithArrays().filter(({ pluginId, name }) => !(`${pluginId}.${name}` in exempt));

type Page = { status: number; body: any };
type ListRef = Pick<ListProcedure, 'pluginId' | 'name' | 'arrayField' | 'usersOnly'>;

/** One call through the keyed surface or REST (GET with a query string). */
async function fetchPage(
  surface: 'keyed' | 'rest',
  list: ListRef,
  input: Record<string, unknown>,
  key: string | Record<string, string> = adminKey,
): Promise<Page> {
  // The admin's own lists are read in the admin's session; a key cannot have an inbox.
  const credentials = list.usersOnly && key === adminKey ? adminSession : key;
  if (surface === 'keyed') {
    const response =
      typeof credentials === 'string'
        ? await server.keyed(list.pluginId, { [list.name]: input }, credentials)
        : await server.request(`/api/${list.pluginId}/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...credentials },
            body: JSON.stringify({ [list.name]: input }),
          });
    const body = await response.json();
    return { status: response.status, body: response.status === 200 ? body[list.name] : body };
  }
  const query = new URLSearchParams(
    Object.entries(input).map(([key, value]): [string, string] => [key, String(value)]),
  ).toString();
  const response = await server.rest('GET', `${list.pluginId}/${list.name}`, {
    ...(typeof credentials === 'string' ? { token: credentials } : { headers: credentials }),
    query,
  });
  return { status: response.status, body: await response.json() };
}

/** Walks a list `limit` rows at a time to its end; the ids in order and the pages' sizes. */
async function walk(
  surface: 'keyed' | 'rest',
  list: ListRef,
  input: Record<string, unknown>,
  limit: number,
  key = adminKey,
) {
  const ids: string[] = [];
  const pages: { size: number; nextCursor: string | null }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const { status, body } = await fetchPage(
      surface,
      list,
      { ...input, limit, ...(cursor && { cursor }) },
      key,
    );
    expect({ status, body: status === 200 ? 'ok' : body }).toEqual({ status: 200, body: 'ok' });
    const items = body[list.arrayField] as { id: string }[];
    ids.push(...items.map((item) => item.id));
    pages.push({ size: items.length, nextCursor: body.nextCursor });
    expect(body).toHaveProperty('nextCursor');
    if (body.nextCursor === null) return { ids, pages };
    cursor = body.nextCursor;
  }
  throw new Error(`${list.pluginId}.${list.name} did not end within ${MAX_PAGES} pages`);
}

const issuePaths = (body: any) => (body.issues ?? []).map((issue: { path: string }) => issue.path);

/**
 * A real cursor altered: a bit flipped at its start, middle and end, cut short, grown by a byte;
 * and the plain `{list, key}` JSON a client could write by hand for a row it has seen.
 */
function tampered(cursor: string, list: string, seenId: string): string[] {
  const bytes = Buffer.from(cursor, 'base64url');
  const flipped = (at: number) => {
    const copy = Buffer.from(bytes);
    copy[at] = copy[at]! ^ 0x01;
    return copy.toString('base64url');
  };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return [
    flipped(0),
    flipped(Math.floor(bytes.length / 2)),
    flipped(bytes.length - 1),
    bytes.subarray(0, bytes.length - 1).toString('base64url'),
    Buffer.concat([bytes, Buffer.from([0])]).toString('base64url'),
    encode({ list, key: [seenId] }),
  ];
}

describe('every list procedure of every plugin pages', () => {
  it('finds the list procedures, each with limit and cursor in and nextCursor out', () => {
    const lists = listProcedures();
    const names = lists.map(({ pluginId, name }) => `${pluginId}.${name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'catalog.getSystems',
        'catalog.getGroups',
        'healthcheck.getHealthChecks',
        'healthcheck.getHistory',
        'maintenance.getWindows',
        'incident.getIncidents',
        'incident.listIncidents',
        'auth.getUsers',
        'auth.getApplications',
        'auth.getRoles',
        'auth.getTeams',
        'auth.getAuditLog',
        'notification.getNotifications',
        'notification.getMySubscriptions',
        'notification.getMyAlerts',
        'notification.getSubscriptions',
        'notification.getDeliveries',
        'statuspage.getSubscribers',
      ]),
    );
    // Every exemption names a query that exists and has an array, so none outlives its reason.
    const withArrays = queriesWithArrays().map(({ pluginId, name }) => `${pluginId}.${name}`);
    expect(withArrays).toEqual(expect.arrayContaining(Object.keys(exempt)));
    for (const { procedure, pluginId, name } of lists) {
      const def = procedure['~orpc'];
      const inputFields = Object.keys(shapeOf(def.inputSchema));
      const outputFields = Object.keys(shapeOf(def.outputSchema));
      expect({ list: `${pluginId}.${name}`, inputFields, outputFields }).toEqual({
        list: `${pluginId}.${name}`,
        inputFields: expect.arrayContaining(['limit', 'cursor']),
        outputFields: expect.arrayContaining(['nextCursor']),
      });
    }
  });

  for (const surface of ['keyed', 'rest'] as const) {
    it(`${surface}: takes limit up to 1000, refuses 1001, and pages without duplicates or gaps`, async () => {
      const lists = listProcedures();
      expect(lists.length).toBeGreaterThanOrEqual(12);
      for (const list of lists) {
        const label = `${list.pluginId}.${list.name}`;
        const input = listInputs[label] ?? {};
        const all = await fetchPage(surface, list, { ...input, limit: 1000 });
        expect({ label, status: all.status }).toEqual({ label, status: 200 });
        expect({ label, nextCursor: all.body.nextCursor }).toEqual({ label, nextCursor: null });
        const everyId = (all.body[list.arrayField] as { id: string }[]).map((item) => item.id);
        expect({ label, more: everyId.length > PAGE }).toEqual({ label, more: true });

        const tooMany = await fetchPage(surface, list, { ...input, limit: 1001 });
        expect({ label, status: tooMany.status, code: tooMany.body.code }).toEqual({
          label,
          status: 400,
          code: 'BAD_REQUEST',
        });
        expect(issuePaths(tooMany.body)).toContain('limit');

        const { ids, pages } = await walk(surface, list, input, PAGE);
        expect({ label, ids }).toEqual({ label, ids: everyId });
        expect(new Set(ids).size).toBe(ids.length);
        expect(pages.length).toBeGreaterThan(1);
      }
    });

    it(`${surface}: answers BAD_REQUEST with issues for a malformed or tampered cursor`, async () => {
      for (const list of listProcedures()) {
        const label = `${list.pluginId}.${list.name}`;
        const input = listInputs[label] ?? {};
        const first = await fetchPage(surface, list, { ...input, limit: 1 });
        const cursor = first.body.nextCursor as string;
        expect({ label, cursor: typeof cursor }).toEqual({ label, cursor: 'string' });
        const seenId = first.body[list.arrayField][0].id as string;
        for (const bad of ['not a cursor', 'e30', ...tampered(cursor, label, seenId)]) {
          const answer = await fetchPage(surface, list, { ...input, cursor: bad });
          expect({ label, bad, status: answer.status, code: answer.body.code }).toEqual({
            label,
            bad,
            status: 400,
            code: 'BAD_REQUEST',
          });
          expect(issuePaths(answer.body)).toContain('cursor');
        }
      }
    });
  }
});

/** Every query of every mounted plugin whose output has `nextCursor`: what the contracts page. */
const pagedProcedures = () =>
  queriesWithArrays().filter(
    ({ procedure }) => 'nextCursor' in shapeOf(procedure['~orpc'].outputSchema),
  );

const issueMessages = (body: any) =>
  (body.issues ?? []).map((issue: { message: string }) => issue.message).join(' | ');

describe('cursors are sealed for their list and their caller', () => {
  /** The first page of one row, read by the admin (in its session for user-only lists). */
  async function firstCursor(surface: 'keyed' | 'rest', list: ListRef) {
    const label = `${list.pluginId}.${list.name}`;
    const first = await fetchPage(surface, list, { ...(listInputs[label] ?? {}), limit: 1 });
    expect({ label, status: first.status }).toEqual({ label, status: 200 });
    return { label, cursor: first.body.nextCursor as string, item: first.body[list.arrayField][0] };
  }

  it('walks every procedure with nextCursor, and they are the lists', () => {
    const paged = pagedProcedures().map(({ pluginId, name }) => `${pluginId}.${name}`);
    expect(paged).toEqual(listProcedures().map(({ pluginId, name }) => `${pluginId}.${name}`));
    expect(paged.length).toBeGreaterThanOrEqual(15);
  });

  for (const surface of ['keyed', 'rest'] as const) {
    it(`${surface}: a cursor shows nothing readable of the row it stands after, nor its list`, async () => {
      for (const list of pagedProcedures()) {
        const { label, cursor, item } = await firstCursor(surface, list);
        const inside = Buffer.from(cursor, 'base64url').toString('latin1');
        const readable = [label, list.pluginId, '"list"', '"key"', ...Object.values(item)].filter(
          (value): value is string => typeof value === 'string' && value.length >= 3,
        );
        for (const value of readable) {
          expect({ label, shows: inside.includes(value) ? value : null }).toEqual({
            label,
            shows: null,
          });
        }
      }
    });

    it(`${surface}: a cursor of another list, or given to another caller, is BAD_REQUEST with a clear message`, async () => {
      const lists = pagedProcedures();
      const cursors = new Map<string, string>();
      for (const list of lists) {
        const { label, cursor } = await firstCursor(surface, list);
        cursors.set(label, cursor);
      }
      for (const [i, list] of lists.entries()) {
        const label = `${list.pluginId}.${list.name}`;
        const input = listInputs[label] ?? {};
        // The next list's cursor, unless both page the same table in the same order.
        const other = lists
          .map((_, j) => lists[(i + j + 1) % lists.length]!)
          .find((candidate) => {
            const otherLabel = `${candidate.pluginId}.${candidate.name}`;
            return !sameList(label, otherLabel);
          })!;
        const foreign = await fetchPage(surface, list, {
          ...input,
          cursor: cursors.get(`${other.pluginId}.${other.name}`),
        });
        expect({ label, status: foreign.status, code: foreign.body.code }).toEqual({
          label,
          status: 400,
          code: 'BAD_REQUEST',
        });
        expect(issueMessages(foreign.body)).toMatch(/another list|another caller/);

        const stolen = await fetchPage(
          surface,
          list,
          { ...input, cursor: cursors.get(label) },
          otherAdminSession,
        );
        expect({ label, status: stolen.status, code: stolen.body.code }).toEqual({
          label,
          status: 400,
          code: 'BAD_REQUEST',
        });
        expect(issuePaths(stolen.body)).toContain('cursor');
        expect(issueMessages(stolen.body)).toMatch(/given to another caller/);

        const mine = await fetchPage(surface, list, { ...input, cursor: cursors.get(label) });
        expect({ label, status: mine.status }).toEqual({ label, status: 200 });
      }
    });
  }
});

/** Lists that page one table in one order share their cursors (their rows are the same kind). */
function sameList(a: string, b: string) {
  const shared = [
    ['incident.getIncidents', 'incident.listIncidents'],
    ['catalog.getGroups', 'catalog.getSystemGroups'],
  ];
  return a === b || shared.some((group) => group.includes(a) && group.includes(b));
}

describe('team-only rows of a list', () => {
  let outsider: string;
  let hiddenSystems: Set<string>;
  /** Every id and name of the hidden systems and of what is attached to them. */
  const hiddenWords: string[] = [];

  beforeAll(async () => {
    const names = ['filter-a', 'filter-b', 'filter-c', 'filter-d', 'filter-e'];
    const systems = await times(names.length, (i) =>
      call('catalog', { createSystem: { name: names[i] } }),
    );
    const soon = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const attached: { id: string; name: string }[][] = [];
    for (const [i, { createSystem }] of systems.entries()) {
      const systemIds = [createSystem.id];
      const { createHealthCheck: check } = await call('healthcheck', {
        createHealthCheck: { systemId: createSystem.id, name: `filter-${i}`, type: 'paging.noop' },
      });
      // Windows and incidents in the order of their systems, so hidden ones lie side by side.
      const { scheduleWindow: window } = await call('maintenance', {
        scheduleWindow: {
          title: `filter-window-${i}`,
          systemIds,
          startAt: soon(200 + i),
          endAt: soon(300),
        },
      });
      const { createIncident: incident } = await call('incident', {
        createIncident: { title: `filter-incident-${i}`, severity: 'minor', systemIds },
      });
      attached.push([
        createSystem,
        { id: check.id, name: check.name },
        { id: window.id, name: window.title },
        { id: incident.id, name: incident.title },
      ]);
    }
    const { createTeam: team } = await call('auth', { createTeam: { name: 'hidden-owners' } });
    // Two systems next to each other by name: some page of two holds only hidden ones.
    hiddenSystems = new Set(systems.slice(1, 3).map(({ createSystem }) => createSystem.id));
    for (const objects of attached.slice(1, 3)) {
      for (const { id, name } of objects) hiddenWords.push(id, name);
    }
    for (const resourceId of hiddenSystems) {
      await call('auth', {
        updateResourceAccess: {
          resourceType: 'catalog.system',
          resourceId,
          teamOnly: true,
          grants: [{ teamId: team.id, access: 'read' }],
        },
      });
    }
    const { createRole: role } = await call('auth', {
      createRole: {
        name: 'outside-reader',
        accessRules: [
          'catalog.catalog.read',
          'healthcheck.healthcheck.read',
          'maintenance.maintenance.read',
          'incident.incident.read',
        ],
      },
    });
    const { createApplication: app } = await call('auth', {
      createApplication: { name: 'outsider' },
    });
    await call('auth', { updateApplication: { id: app.application.id, roleIds: [role.id] } });
    outsider = app.secret;
  });

  // Pages of one and two: a page of hidden rows only, and a hidden row last on a page, both occur.
  const filtered = [1, PAGE].flatMap((limit) => [
    { pluginId: 'healthcheck', name: 'getHealthChecks', arrayField: 'healthChecks', limit },
    { pluginId: 'catalog', name: 'getSystems', arrayField: 'systems', limit },
    { pluginId: 'maintenance', name: 'getWindows', arrayField: 'windows', limit },
    { pluginId: 'incident', name: 'getIncidents', arrayField: 'incidents', limit },
    { pluginId: 'incident', name: 'listIncidents', arrayField: 'incidents', limit },
  ]);
  type Item = { id: string; systemId?: string; systemIds?: string[] };
  const systemsOf = (item: Item) => item.systemIds ?? [item.systemId ?? item.id];

  for (const surface of ['keyed', 'rest'] as const) {
    for (const list of filtered) {
      it(`${surface}: ${list.name} by ${list.limit} fills every page but the last with rows the caller may see, and no cursor carries a hidden one`, async () => {
        const everything = await fetchPage(surface, list, { limit: 1000 });
        const items = everything.body[list.arrayField] as Item[];
        const visible = items.filter(
          (item) => !systemsOf(item).every((id) => hiddenSystems.has(id)),
        );
        expect(visible.length).toBeLessThan(items.length);

        const { ids, pages } = await walk(surface, list, {}, list.limit, outsider);
        expect(ids).toEqual(visible.map((item) => item.id));
        expect(pages.slice(0, -1).map((page) => page.size)).toEqual(
          pages.slice(0, -1).map(() => list.limit),
        );
        for (const { nextCursor } of pages) {
          const inside = Buffer.from(nextCursor ?? '', 'base64url').toString('latin1');
          expect(hiddenWords.filter((word) => inside.includes(word))).toEqual([]);
        }
      });
    }
  }

  it('the attack of issue 19: a first page of one hidden system gives a visible one, and no hidden name', async () => {
    // Systems order by name; `filter-b` (hidden) follows `filter-a`: the outsider's second page.
    const first = await fetchPage(
      'keyed',
      { pluginId: 'catalog', name: 'getSystems', arrayField: 'systems' },
      { limit: 1 },
      outsider,
    );
    expect(first.status).toBe(200);
    const second = await fetchPage(
      'keyed',
      { pluginId: 'catalog', name: 'getSystems', arrayField: 'systems' },
      { limit: 1, cursor: first.body.nextCursor },
      outsider,
    );
    expect(second.status).toBe(200);
    expect(second.body.systems).toHaveLength(1);
    expect(hiddenSystems.has(second.body.systems[0].id)).toBe(false);
    const answers = JSON.stringify([first.body, second.body]);
    const inCursors = [first.body.nextCursor, second.body.nextCursor]
      .map((cursor: string) => Buffer.from(cursor, 'base64url').toString('latin1'))
      .join('');
    expect(
      hiddenWords.filter((word) => answers.includes(word) || inCursors.includes(word)),
    ).toEqual([]);
  });
});
