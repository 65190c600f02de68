import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  recordingStrategy,
  testChannelPlugin,
  writeStrategySettings,
} from '@checkline/notification/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminKey } from './support/admin-key.ts';
import { eventually, warningsIn } from './support/alert-channels.ts';
import { minimalValue, type DocumentSchema } from './support/minimal-input.ts';
import { startPrismProxy, type PrismProxy } from './support/prism-proxy.ts';
import { serverFolder } from './support/run-tool.ts';
import { createTestServer, testAdmin, type TestServer } from './support/test-server.ts';

/**
 * Issue 24: Prism (`prism proxy --errors`) in front of the real server checks every request
 * against the document and every answer against what the document declares for it. One call per
 * operation that should succeed and one that should fail go through it; Prism must see nothing
 * wrong. The walk builds its own records: creates run first, deletes last, and the ids a create
 * answers are the ids later calls name. What no create answers (an open alert, a failed delivery,
 * a page's subscriber) is set up before the walk, in `createFixtures`.
 */
interface Operation {
  method: string;
  path: string;
  operation: DocumentSchema;
}
interface Call {
  label: string;
  status: number;
  text: string;
  violation?: string;
}

let server: TestServer;
let listening: { url: string; close(): Promise<void> };
let prism: PrismProxy;
let workFolder: string;
let document: DocumentSchema;
let adminKey: string;
let session: { cookie: string; origin: string };
let adminUserId: string;
let fixtures: Awaited<ReturnType<typeof createFixtures>>;
const calls: Call[] = [];
/** Ids (and a status page's slug) the walk's own creates answered, by noun. */
const world = new Map<string, string>();
/** Values a property of this name takes everywhere (ones no schema can guess). */
const known: Record<string, unknown> = {
  resourceType: 'catalog.system',
  currentPassword: testAdmin.password,
};

/** A check's target that is always down, so the administrator holds an open alert. */
const downTarget = createServer((_request, response) => response.writeHead(500).end('down'));

/** A channel whose sends fail for good at once, so the walk has a failed delivery to redeliver. */
const REJECTING = 'prism-channel.rejecting';
/**
 * The fixtures wait on the server's own queues (a health event opening an alert, a delivery
 * failing): bounded for a machine busy with other test files, and polled every 100 ms, since
 * every look is a request to the same process. A timeout names the server's warnings.
 */
const FIXTURE_WAIT_MS = 60_000;
const fixtureWait = { pollMs: 100, explain: () => warningsIn(server.logLines) };
const rejecting = recordingStrategy({ id: 'rejecting' }, () =>
  Promise.resolve({ success: false, error: 'no such recipient', permanent: true }),
);

const inAnHour = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
/** Inputs a schema cannot tell (one of two fields, an order between two times). */
const overrides: Record<string, () => Record<string, unknown>> = {
  createSubscriptionFor: () => ({ userId: world.get('user') }),
  // Called with the admin's key: an application sets only the channel that reaches it.
  updateMyChannel: () => ({ strategyId: 'notification-webhook.webhook' }),
  notifyUsers: () => ({ userIds: [adminUserId] }),
  scheduleWindow: () => ({ startAt: inAnHour(1), endAt: inAnHour(2) }),
  addTeamMember: () => ({ userId: world.get('user') }),
  removeTeamMember: () => ({ userId: world.get('user') }),
  getUptime: () => ({ systemIds: [world.get('system')] }),
  deleteSubscriber: () => ({ pageId: fixtures.pageId, id: fixtures.subscriberId }),
  changeMyPassword: () => ({ newPassword: `${testAdmin.password} changed` }),
};

beforeAll(async () => {
  server = await createTestServer({
    extraPlugins: [testChannelPlugin('prism-channel', [rejecting.strategy])],
  });
  await writeStrategySettings(server.database.db, REJECTING);
  listening = await server.listen();
  adminKey = await createAdminKey(server);
  session = await server.adminSession();
  const strategies = await server.keyed('notification', { getStrategies: {} }, adminKey);
  const { getStrategies } = (await strategies.json()) as {
    getStrategies: { strategies: { strategyId: string }[] };
  };
  known.strategyId = getStrategies.strategies.find(
    ({ strategyId }) => strategyId !== REJECTING,
  )?.strategyId;
  const me = await server.request('/rest/auth/getMe', { headers: session });
  adminUserId = ((await me.json()) as { id: string }).id;
  fixtures = await createFixtures();
  const served = await fetch(`${listening.url}/api/openapi.json`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  const text = await served.text();
  document = JSON.parse(text) as DocumentSchema;
  const artifacts = join(serverFolder, 'test', 'artifacts');
  mkdirSync(artifacts, { recursive: true });
  workFolder = mkdtempSync(join(artifacts, 'prism-'));
  writeFileSync(join(workFolder, 'openapi.json'), text);
  prism = await startPrismProxy(join(workFolder, 'openapi.json'), listening.url);
  // Bounds the fixtures' two waits and Prism's start (90 s) on a busy machine.
}, 300_000);
afterAll(async () => {
  await prism?.close();
  if (workFolder) rmSync(workFolder, { recursive: true, force: true });
  await listening.close();
  await server.close();
  await new Promise((resolve) => downTarget.close(resolve));
});

/** Records the raw routes name by token or slug, made directly (not through Prism). */
async function createFixtures() {
  const keyed = async (plugin: string, body: Record<string, unknown>) => {
    const response = await server.keyed(plugin, body, adminKey);
    const answer = (await response.json()) as Record<string, any>;
    if (response.status !== 200) throw new Error(JSON.stringify(answer));
    return answer[Object.keys(body)[0]!] as Record<string, any>;
  };
  const system = await keyed('catalog', { createSystem: { name: 'prism-fixtures' } });
  const heartbeat = await keyed('healthcheck', {
    createHealthCheck: {
      systemId: system.id,
      name: 'cron job',
      type: 'healthcheck.heartbeat',
      config: {},
    },
  });
  world.set('heartbeat', heartbeat.id as string);
  const page = await keyed('statuspage', {
    createPage: { slug: 'prism-public', title: 'Prism public page' },
  });
  await keyed('statuspage', { publishPage: { id: page.id } });
  // A pending subscriber is one `getSubscribers` lists and `deleteSubscriber` can remove.
  const subscribed = await server.request(`/api/statuspage/public/${page.slug}/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'prism-subscriber@example.com' }),
  });
  if (!subscribed.ok) throw new Error(`subscribe: ${subscribed.status}`);
  const { subscribers } = await keyed('statuspage', { getSubscribers: { pageId: page.id } });
  const subscriber = (subscribers as { id: string; email: string }[]).find(
    ({ email }) => email === 'prism-subscriber@example.com',
  );
  world.set('delivery', await failedDelivery(keyed));
  world.set('alert', await openAlert(keyed));
  return {
    heartbeatToken: heartbeat.heartbeatToken as string,
    slug: page.slug as string,
    pageId: page.id as string,
    subscriberId: subscriber?.id,
  };
}

/**
 * Subscribes the administrator to a system of its own with reminders, turns it unhealthy with a
 * check against a target that answers 500, and waits (bounded) for the alert to open; its id.
 * The system has no other check: beside the heartbeat check the scheduler may have run first,
 * the failing one would make it only degraded, and no alert would open.
 */
async function openAlert(
  keyed: (plugin: string, body: Record<string, unknown>) => Promise<Record<string, any>>,
): Promise<string> {
  const { id: systemId } = await keyed('catalog', { createSystem: { name: 'prism-alerts' } });
  await new Promise<void>((resolve) => downTarget.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(downTarget.address() as AddressInfo).port}/health`;
  const asAdmin = async (procedure: string, body?: unknown) => {
    const response = await server.request(
      `/rest/notification/${procedure}`,
      body === undefined
        ? { headers: asSession() }
        : {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...asSession() },
            body: JSON.stringify(body),
          },
    );
    const answer = (await response.json()) as Record<string, any>;
    if (response.status !== 200) throw new Error(`${procedure}: ${JSON.stringify(answer)}`);
    return answer;
  };
  await asAdmin('createSubscription', { systemId, events: ['health'], remindEverySeconds: 3_600 });
  const check = await keyed('healthcheck', {
    createHealthCheck: {
      systemId,
      name: 'always down',
      type: 'healthcheck.http',
      config: { url },
      intervalSeconds: 3_600,
    },
  });
  await keyed('healthcheck', { runHealthCheck: { id: check.id } });
  const alert = await eventually(
    'alert opened',
    async () => {
      const { alerts } = await asAdmin('getMyAlerts');
      return (alerts as { id: string; state: string }[]).find((alert) => alert.state === 'open');
    },
    FIXTURE_WAIT_MS,
    fixtureWait,
  );
  return alert.id;
}

/** Sends the administrator a notification through the rejecting channel; its delivery's id. */
async function failedDelivery(
  keyed: (plugin: string, body: Record<string, unknown>) => Promise<Record<string, any>>,
): Promise<string> {
  const sent = await keyed('notification', {
    sendExternal: {
      userIds: [adminUserId],
      strategyId: REJECTING,
      notification: { title: 'Undeliverable', type: 'test.prism' },
    },
  });
  const notificationId = sent.notificationId as string;
  const delivery = await eventually(
    'failed delivery through the rejecting channel',
    async () => {
      const { deliveries } = await keyed('notification', { getDeliveries: { notificationId } });
      return (deliveries as { id: string; status: string }[]).find(
        ({ status }) => status === 'failed',
      );
    },
    FIXTURE_WAIT_MS,
    fixtureWait,
  );
  return delivery.id;
}

const methods = ['get', 'post', 'put', 'patch', 'delete'];
const operationsOf = (doc: DocumentSchema): Operation[] =>
  Object.entries(doc.paths as Record<string, Record<string, DocumentSchema>>).flatMap(
    ([path, item]) =>
      Object.entries(item)
        .filter(([method]) => methods.includes(method))
        .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );

const resolve = (ref: string): DocumentSchema =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<DocumentSchema>((node, key) => node[key] as DocumentSchema, document);

/** `createHealthCheck` -> `healthcheck`; `scheduleWindow` -> `window`. */
const nounOf = (procedure: string) =>
  procedure
    .replace(
      /^(get|create|update|delete|schedule|publish|unpublish|regenerate|add|remove|rotate|run|set|mark|acknowledge)/,
      '',
    )
    .replace(/(Secret|Token|ToGroup|FromGroup)$/, '')
    .toLowerCase();

/** Procedures whose name does not say what their `id` names. */
const idNouns: Record<string, string> = { redeliver: 'delivery', markAsRead: 'notification' };

const idFor = (procedure: string) => (name: string) => {
  if (name === 'id') return world.get(idNouns[procedure] ?? nounOf(procedure));
  return world.get(name.replace(/Ids?$/, '').toLowerCase());
};

/**
 * A violation Prism reports in a header, or an answer of Prism's own (a refused request, or an
 * upstream it could not read): the server never answers `application/problem+json`.
 */
async function violationOf(response: Response): Promise<string | undefined> {
  const header = response.headers.get('sl-violations');
  if (header) return header;
  if (!(response.headers.get('content-type') ?? '').includes('problem+json')) return undefined;
  return await response.clone().text();
}

async function send(label: string, path: string, init: RequestInit): Promise<Response> {
  const response = await fetch(`${prism.url}${path}`, {
    ...init,
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  const violation = await violationOf(response);
  const text = response.status >= 400 ? (await response.clone().text()).slice(0, 200) : '';
  calls.push({ label, status: response.status, text, ...(violation && { violation }) });
  return response;
}

const asKey = (key: string) => ({ authorization: `Bearer ${key}` });
const asSession = () => ({ cookie: session.cookie, origin: session.origin });

/** One REST operation with its minimal valid input; a user session when keys are refused. */
async function callRest({ method, path, operation }: Operation, headers: Record<string, string>) {
  const procedure = path.replace(/^\/rest\/[^/]+\//, '');
  const options = { resolve, idFor: idFor(procedure), valueFor: (name: string) => known[name] };
  const override = overrides[procedure]?.() ?? {};
  let url = path;
  let body: string | undefined;
  if (method === 'GET') {
    const query = new URLSearchParams();
    for (const parameter of (operation.parameters ?? []) as DocumentSchema[]) {
      if (!parameter.required) continue;
      const value = minimalValue(parameter.schema as DocumentSchema, options, parameter.name);
      for (const item of Array.isArray(value) ? value : [value]) {
        query.append(parameter.name as string, String(item));
      }
    }
    if (query.size > 0) url += `?${query}`;
  } else {
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    const minimal = schema ? (minimalValue(schema as DocumentSchema, options) as object) : {};
    body = JSON.stringify({ ...minimal, ...override });
  }
  const init = (extra: Record<string, string>) => ({
    method,
    headers: { ...extra, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body }),
  });
  let response = await send(`${method} ${path}`, url, init(headers));
  if (response.status === 403 && headers.authorization !== 'Bearer ck_unknown_key') {
    const answer = (await response.clone().json()) as { message?: string };
    if (answer.message?.includes('not available to application callers')) {
      calls.pop();
      response = await send(`${method} ${path}`, url, init(asSession()));
    }
  }
  if (response.ok) {
    const data = (await response.clone().json()) as Record<string, any>;
    for (const [key, value] of Object.entries(data)) {
      const first = Array.isArray(value) ? (value[0] as { id?: unknown } | undefined) : undefined;
      const noun = key.replace(/ies$/, 'y').replace(/s$/, '');
      if (typeof first?.id === 'string' && !world.has(noun)) world.set(noun, first.id);
    }
    const noun = nounOf(procedure);
    const id = (data.id ?? data[noun]?.id) as string | undefined;
    if (id && /^(create|schedule)/.test(procedure) && method !== 'GET') world.set(noun, id);
    if (typeof data.slug === 'string') world.set('slug', data.slug);
  }
  await response.body?.cancel();
}

/**
 * Creates first, then the rest, then what takes records away (deletes in the reverse order of
 * the creates, so a record goes before the one it hangs on), the password change last.
 */
const phase = (path: string) =>
  /\/(create|schedule)/.test(path)
    ? 0
    : /\/(unpublish|remove)/.test(path)
      ? 2
      : /\/delete/.test(path)
        ? 3
        : /changeMyPassword$/.test(path)
          ? 4
          : 1;
const walkOrder = (operations: Operation[]) =>
  operations
    .map((operation, index) => ({ operation, index }))
    .sort((a, b) => {
      const [phaseA, phaseB] = [phase(a.operation.path), phase(b.operation.path)];
      if (phaseA !== phaseB) return phaseA - phaseB;
      return phaseA === 3 ? b.index - a.index : a.index - b.index;
    })
    .map(({ operation }) => operation);

describe('Prism as a validating proxy in front of the server', () => {
  it('sees the keyed surface, the raw routes and the probes answer as declared', async () => {
    const start = calls.length;
    const raw = operationsOf(document).filter(({ path }) => !path.startsWith('/rest/'));
    const json = (body: unknown) => ({
      'content-type': 'application/json',
      body: JSON.stringify(body),
    });
    const fresh = await server.sessionOf(testAdmin.email, testAdmin.password);
    const open = await server.keyed(
      'auth',
      { updateRegistrationStatus: { allowRegistration: true } },
      adminKey,
    );
    expect(open.status).toBe(200);
    const table: RawCall[] = [
      ...raw
        .filter(({ path }) => /^\/api\/[a-z-]+$/.test(path) && !path.includes('auth-backend'))
        .flatMap(({ path, operation }): RawCall[] => {
          const properties = operation.requestBody.content['application/json'].schema
            .properties as Record<string, DocumentSchema>;
          // A read an application may make (notification's first reads are users' own).
          const procedure =
            ['getStrategies', 'getMe'].find((name) => name in properties) ??
            Object.keys(properties).find((name) => name.startsWith('get'))!;
          const input = minimalValue(properties[procedure]!, {
            resolve,
            idFor: idFor(procedure),
            valueFor: (name) => known[name],
          });
          const body = json({ [procedure]: input });
          return [
            { intent: 'success', method: 'POST', path, headers: asKey(adminKey), ...body },
            { intent: 'error', method: 'POST', path, headers: asKey('ck_unknown_key'), ...body },
          ];
        }),
      {
        intent: 'success',
        method: 'POST',
        path: '/api/auth-backend/custom/login',
        ...json({ username: testAdmin.email, password: testAdmin.password }),
      },
      {
        intent: 'redirect',
        method: 'POST',
        path: '/api/auth-backend/custom/login',
        ...json({ username: testAdmin.email, password: 'not the password' }),
      },
      {
        intent: 'success',
        method: 'POST',
        path: '/api/auth-backend/custom/signup',
        ...json({ email: 'prism-signup@example.com', password: 'a long enough password' }),
      },
      {
        intent: 'redirect',
        method: 'POST',
        path: '/api/auth-backend/custom/signup',
        ...json({ email: 'prism-signup@example.com', password: 'a long enough password' }),
      },
      {
        intent: 'success',
        method: 'POST',
        path: '/api/auth-backend/logout',
        headers: fresh,
        ...json({}),
      },
      {
        intent: 'error',
        method: 'POST',
        path: '/api/auth-backend/logout',
        headers: { cookie: session.cookie },
      },
      {
        intent: 'error',
        method: 'POST',
        path: '/api/notification/unsubscribe/not-a-token',
        'content-type': 'application/x-www-form-urlencoded',
        body: 'List-Unsubscribe=One-Click',
      },
      { intent: 'redirect', method: 'GET', path: '/api/notification/unsubscribe/not-a-token' },
      {
        intent: 'redirect',
        method: 'GET',
        path: `/api/notification/oauth/${String(known.strategyId)}/auth`,
        headers: { cookie: session.cookie },
      },
      {
        intent: 'redirect',
        method: 'GET',
        path: `/api/notification/oauth/${String(known.strategyId)}/callback?code=x&state=y`,
        headers: { cookie: session.cookie },
      },
      // The strategies here link no accounts: 404 with a session, 403 without our Origin.
      ...(['POST refresh', 'DELETE unlink'] as const).flatMap((action): RawCall[] => {
        const [method, tail] = action.split(' ') as [string, string];
        const path = `/api/notification/oauth/${String(known.strategyId)}/${tail}`;
        return [
          { intent: 'error', method, path, headers: asSession(), ...json({}) },
          { intent: 'error', method, path, headers: { cookie: session.cookie }, ...json({}) },
        ];
      }),
      { intent: 'error', method: 'POST', path: '/api/notification/alerts/acknowledge/not-a-token' },
      { intent: 'error', method: 'GET', path: '/api/notification/alerts/acknowledge/not-a-token' },
      {
        intent: 'success',
        method: 'POST',
        path: `/api/healthcheck/heartbeat/${fixtures.heartbeatToken}`,
      },
      { intent: 'error', method: 'POST', path: '/api/healthcheck/heartbeat/not-a-token' },
      ...['', '/badge.svg', '/feed.atom'].flatMap((tail): RawCall[] => [
        {
          intent: 'success',
          method: 'GET',
          path: `/api/statuspage/public/${fixtures.slug}${tail}`,
        },
        { intent: 'error', method: 'GET', path: `/api/statuspage/public/no-such-page${tail}` },
      ]),
      {
        intent: 'success',
        method: 'POST',
        path: `/api/statuspage/public/${fixtures.slug}/subscribe`,
        ...json({ email: 'reader@example.com' }),
      },
      {
        intent: 'error',
        method: 'POST',
        path: '/api/statuspage/public/no-such-page/subscribe',
        ...json({ email: 'reader@example.com' }),
      },
      { intent: 'page', method: 'GET', path: '/api/statuspage/subscriptions/confirm/not-a-token' },
      {
        intent: 'error',
        method: 'POST',
        path: '/api/statuspage/subscriptions/confirm/not-a-token',
      },
      {
        intent: 'page',
        method: 'GET',
        path: '/api/statuspage/subscriptions/unsubscribe/not-a-token',
      },
      {
        intent: 'error',
        method: 'POST',
        path: '/api/statuspage/subscriptions/unsubscribe/not-a-token',
      },
      { intent: 'success', method: 'GET', path: '/healthz' },
      { intent: 'success', method: 'GET', path: '/readyz' },
    ];
    const wrong: string[] = [];
    const redirected: string[] = [];
    for (const call of table) {
      if (call.intent === 'redirect') {
        redirected.push(await sendDirect(call, raw));
        continue;
      }
      const headers = {
        ...call.headers,
        ...(call['content-type'] && { 'content-type': call['content-type'] }),
      };
      const response = await send(`${call.method} ${call.path}`, call.path, {
        method: call.method,
        headers,
        ...(call.body !== undefined && { body: call.body }),
      });
      await response.body?.cancel();
      const succeeded = response.status < 400;
      if ((call.intent === 'success' && !succeeded) || (call.intent === 'error' && succeeded)) {
        wrong.push(
          `${call.intent} ${call.method} ${call.path}: ${response.status} ${calls.at(-1)?.text}`,
        );
      }
    }
    const made = calls.slice(start);
    expect(
      made
        .filter((call) => call.violation)
        .map((call) => `${call.label}: ${call.status} ${call.text} ${call.violation}`),
    ).toEqual([]);
    expect(wrong).toEqual([]);
    expect(redirected.filter((line) => !line.endsWith(', declared'))).toEqual([]);
    const routeOf = (label: string) => label.replace(/\?.*$/, '');
    // The three GETs that only ever redirect are checked past Prism (see `sendDirect`).
    const covered = new Set([
      ...made.map((call) => routeOf(call.label)),
      ...redirected.map((line) => line.replace(/:.*$/, '')),
    ]);
    const uncovered = raw.filter(({ method, path }) => {
      const pattern = new RegExp(`^${method} ${path.replaceAll(/\{[^}]+\}/g, '[^/]+')}$`);
      return ![...covered].some((label) => pattern.test(label));
    });
    expect(uncovered.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
  }, 120_000);

  it('sees every REST operation succeed and fail without a violation', async () => {
    const start = calls.length;
    const rest = walkOrder(operationsOf(document).filter(({ path }) => path.startsWith('/rest/')));
    expect(rest.length).toBeGreaterThan(80);
    for (const operation of rest) {
      // An endless stream: Prism reads an answer whole before checking it. The stream's answer
      // is checked against the document in openapi-event-stream.test.ts.
      if (operation.path.endsWith('/streamNotifications')) continue;
      await callRest(operation, asKey(adminKey));
      await callRest(operation, asKey('ck_unknown_key'));
    }
    const made = calls.slice(start);
    expect(
      made.filter((call) => call.violation).map((call) => `${call.label}: ${call.violation}`),
    ).toEqual([]);
    const succeeded = new Set(made.filter((call) => call.status < 400).map((call) => call.label));
    const failed = new Set(made.filter((call) => call.status >= 400).map((call) => call.label));
    const walked = rest
      .map(({ method, path }) => `${method} ${path}`)
      .filter((label) => !label.endsWith('/streamNotifications'));
    expect(walked.filter((label) => !failed.has(label))).toEqual([]);
    expect(
      walked
        .filter((label) => !succeeded.has(label))
        .map((label) => label.replace(/^.*\//, ''))
        .sort(),
    ).toEqual(Object.keys(noSuccessHere).sort());
  }, 300_000);
});

/** Operations that cannot succeed over HTTP, and why; each still gets its error call. */
const noSuccessHere: Record<string, string> = {
  getUserProfiles: 'service callers only (plugins in the server), not reachable over HTTP',
  getTeamUsers: 'service callers only',
  getApplicationProfiles: 'service callers only',
  sendToAddress: 'service callers only',
};

/** A redirecting call sent to the server itself; answers `METHOD path: status, declared`. */
async function sendDirect(call: RawCall, raw: Operation[]): Promise<string> {
  const response = await fetch(`${listening.url}${call.path}`, {
    method: call.method,
    headers: {
      ...call.headers,
      ...(call['content-type'] && { 'content-type': call['content-type'] }),
    },
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
    ...(call.body !== undefined && { body: call.body }),
  });
  await response.body?.cancel();
  const path = call.path.replace(/\?.*$/, '');
  const operation = raw.find(
    (candidate) =>
      candidate.method === call.method &&
      new RegExp(`^${candidate.path.replaceAll(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
  const declared = String(response.status) in (operation?.operation.responses ?? {});
  return `${call.method} ${path}: ${response.status}, ${declared ? 'declared' : 'NOT declared'}`;
}

interface RawCall {
  /**
   * `page`: a GET answering a page that says what happened, whatever the token. `redirect`: an
   * answer that is a redirect, sent past Prism (its proxy follows redirects, so it would check the
   * page redirected to instead); the status must still be one the document declares.
   */
  intent: 'success' | 'error' | 'page' | 'redirect';
  method: string;
  path: string;
  headers?: Record<string, string>;
  'content-type'?: string;
  body?: string;
}
