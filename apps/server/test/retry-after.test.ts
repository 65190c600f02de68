import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnyPlugin } from '@checkline/core';
import { createHealthcheckPlugin } from '@checkline/healthcheck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Every budget that refuses with a time to wait tells it on both surfaces: once a budget is spent
 * (through REST), the REST and the RPC call answer 429 with a whole number of seconds in
 * `Retry-After`. The only target a check dials is a loopback server this file starts.
 */
const BUDGET = 2;
/** Above BUDGET, so the sends of one key spend the send quota before the key's own budget. */
const KEY_BUDGET = BUDGET + 2;
const BAD_KEY =
  'ck_00000000-0000-4000-8000-000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

let server: TestServer;
let target: Server;
let session: { cookie: string; origin: string };

beforeAll(async () => {
  target = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const plugins = createPlugins(
    { ...testEnv, CHECK_TARGETS_ALLOW: ['127.0.0.1'] },
    {
      rateLimits: {
        failedAuthPerIp: { points: BUDGET, durationSeconds: 60 },
        callsPerKey: { points: KEY_BUDGET, durationSeconds: 60 },
      },
    },
    undefined,
    { sendQuota: { points: BUDGET, durationSeconds: 60 } },
  ).map((plugin) =>
    plugin.id === 'healthcheck'
      ? (createHealthcheckPlugin({
          targets: { allow: ['127.0.0.1'], deny: [] },
          runRateLimit: { points: BUDGET, durationSeconds: 60 },
          scheduler: { autoStart: false },
        }) as unknown as AnyPlugin)
      : plugin,
  );
  server = await createTestServer({ plugins });
  session = await server.adminSession();
});
afterAll(async () => {
  await server?.close();
  target?.closeAllConnections();
  await new Promise((resolve) => target?.close(resolve));
});

type Credentials = { token: string } | { session: true };
type Surface = 'rest' | 'rpc';

/** One procedure called on one surface, by a key or by the admin's browser session. */
function call(
  surface: Surface,
  pluginId: string,
  procedure: string,
  input: unknown,
  credentials: Credentials,
) {
  const headers: Record<string, string> =
    'token' in credentials ? {} : { cookie: session.cookie, origin: session.origin };
  const token = 'token' in credentials ? credentials.token : undefined;
  if (surface === 'rest') {
    // Reads without input are plain GETs; everything this file calls otherwise is a POST.
    const read = procedure.startsWith('get');
    return server.rest(read ? 'GET' : 'POST', `${pluginId}/${procedure}`, {
      ...(!read && { body: input }),
      headers,
      ...(token && { token }),
    });
  }
  if (token) return server.keyed(pluginId, { [procedure]: input }, token);
  return server.request(`/api/${pluginId}/`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ [procedure]: input }),
  });
}

async function newKey(name: string) {
  const created = await call('rpc', 'auth', 'createApplication', { name }, { session: true });
  return ((await created.json()) as { createApplication: { secret: string } }).createApplication
    .secret;
}

/** The RPC answer of one procedure called with the admin's session. */
async function asAdmin(pluginId: string, procedure: string, input: unknown) {
  const response = await call('rpc', pluginId, procedure, input, { session: true });
  return ((await response.json()) as Record<string, Record<string, unknown>>)[procedure]!;
}

/** A key that may send notifications (and nothing else). */
async function senderKey() {
  const role = await asAdmin('auth', 'createRole', {
    name: 'sender',
    accessRules: ['notification.notification.send'],
  });
  const created = await asAdmin('auth', 'createApplication', { name: 'sender' });
  const application = created.application as { id: string };
  await asAdmin('auth', 'updateApplication', { id: application.id, roleIds: [role.id] });
  return created.secret as string;
}

async function newHealthCheck() {
  const system = await call(
    'rpc',
    'catalog',
    'createSystem',
    { name: 'budgeted' },
    {
      session: true,
    },
  );
  const systemId = ((await system.json()) as { createSystem: { id: string } }).createSystem.id;
  const port = (target.address() as AddressInfo).port;
  const check = await call(
    'rpc',
    'healthcheck',
    'createHealthCheck',
    {
      systemId,
      name: 'budgeted',
      type: 'healthcheck.http',
      config: { url: `http://127.0.0.1:${port}/` },
    },
    { session: true },
  );
  return ((await check.json()) as { createHealthCheck: { id: string } }).createHealthCheck.id;
}

interface SpentBudget {
  /** The call the spent budget refuses, with the credentials that spent it. */
  pluginId: string;
  procedure: string;
  input: unknown;
  credentials: Credentials;
}

const budgets: [string, () => Promise<SpentBudget>][] = [
  [
    'runHealthCheck (runs per caller)',
    async () => {
      const id = await newHealthCheck();
      const spent = {
        pluginId: 'healthcheck',
        procedure: 'runHealthCheck',
        input: { id },
        credentials: { session: true },
      } as const;
      for (let run = 0; run < BUDGET; run++) {
        expect(
          (await call('rest', 'healthcheck', 'runHealthCheck', { id }, spent.credentials)).status,
        ).toBe(200);
      }
      return spent;
    },
  ],
  [
    'failed authentications from one address',
    async () => {
      const spent = {
        pluginId: 'catalog',
        procedure: 'getSystems',
        input: {},
        credentials: { token: BAD_KEY },
      };
      for (let attempt = 0; attempt < BUDGET; attempt++) {
        expect((await call('rest', 'catalog', 'getSystems', {}, spent.credentials)).status).toBe(
          401,
        );
      }
      return spent;
    },
  ],
  [
    'calls per key',
    async () => {
      const spent = {
        pluginId: 'catalog',
        procedure: 'getSystems',
        input: {},
        credentials: { token: await newKey('chatty') },
      };
      for (let attempt = 0; attempt < KEY_BUDGET; attempt++) {
        expect((await call('rest', 'catalog', 'getSystems', {}, spent.credentials)).status).toBe(
          403,
        );
      }
      return spent;
    },
  ],
  [
    'recipients sent to per caller',
    async () => {
      const me = await asAdmin('auth', 'getMe', {});
      const userId = (me.user as { id: string } | undefined)?.id ?? (me.id as string);
      const spent = {
        pluginId: 'notification',
        procedure: 'notifyUsers',
        input: {
          userIds: [userId],
          notification: { title: 'Disk almost full', type: 'test.quota' },
        },
        credentials: { token: await senderKey() },
      };
      for (let send = 0; send < BUDGET; send++) {
        const response = await call(
          'rest',
          'notification',
          'notifyUsers',
          spent.input,
          spent.credentials,
        );
        expect(response.status).toBe(200);
      }
      return spent;
    },
  ],
];

describe('Retry-After on every surface', () => {
  it.each(budgets)('%s: REST and RPC answer 429 with Retry-After', async (_budget, spend) => {
    const spent = await spend();
    for (const surface of ['rest', 'rpc'] as const) {
      const refused = await call(
        surface,
        spent.pluginId,
        spent.procedure,
        spent.input,
        spent.credentials,
      );
      expect({ surface, status: refused.status }).toEqual({ surface, status: 429 });
      const retryAfter = refused.headers.get('retry-after');
      expect({ surface, retryAfter }).toEqual({
        surface,
        retryAfter: expect.stringMatching(/^[1-9]\d*$/),
      });
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    }
  });
});
