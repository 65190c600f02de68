import type { Principal, RouteMeta } from '@checkline/core';
import { definePlugin, mountedRoutes, silentLogger } from '@checkline/core';
import { startPluginHarness, testPrincipal } from '@checkline/core/testing';
import { defineAccessRules, defineContract, mutation, query } from '@checkline/core/contract';
import { z } from 'zod';
import { createTestDatabase } from '@checkline/db/testing';
import { authAccess } from './access.ts';
import type { AuthConfig } from './config.ts';
import { authContract } from './contract.ts';
import { createAuthPlugin } from './plugin.ts';
import type { AuthStrategy } from './strategies/strategy.ts';
import { authStrategyExtensionPoint } from './strategies/strategy.ts';

/** Rules of a stand-in plugin, so role tests have something besides auth's own. */
export const demoAccess = defineAccessRules('demo', {
  read: ['demo.read', 'See demo things'],
  manage: ['demo.manage', 'Change demo things'],
});

/** The stand-in plugin's procedures: `demo.read` only reads, `demo.manage` changes things. */
const demoContract = defineContract('demo', {
  getThing: query({
    access: [demoAccess.read],
    resource: { type: 'demo.thing', idField: 'id' },
    summary: 'One demo thing.',
  })
    .input(z.object({ id: z.string() }))
    .output(z.object({ id: z.string() })),
  updateThing: mutation({ access: [demoAccess.manage], summary: 'Changes a demo thing.' })
    .input(z.object({ id: z.string() }))
    .output(z.object({ id: z.string() })),
});

export const testAdmin = { email: 'admin@example.com', password: 'correct horse battery staple' };

export const BASE_URL = 'http://localhost:3000';

/** What an admin's session resolves to: every rule, and the admin flag. */
export const adminPrincipal = (): Principal =>
  testPrincipal([...Object.values(authAccess), ...Object.values(demoAccess)], {
    kind: 'user',
    isAdmin: true,
    id: '00000000-0000-4000-8000-0000000000ad',
  });

/**
 * The auth plugin on a fresh test database, taken through its start-up phases as the server does,
 * with its team access installed: `auth.as(principal).createTeam(...)`.
 */
export async function startAuth({
  strategies = [],
  ...config
}: Partial<AuthConfig> & { strategies?: AuthStrategy[] } = {}) {
  const plugin = createAuthPlugin({
    baseUrl: BASE_URL,
    admin: testAdmin,
    accessRules: Object.values(demoAccess),
    contracts: [demoContract],
    ...config,
  });
  const database = await createTestDatabase([
    { pluginId: 'auth', folder: plugin.migrationsFolder! },
  ]);
  // A plugin of its own registers the extra strategies, as a strategy package would.
  const strategyPlugin = definePlugin({
    id: 'test-strategies',
    description: 'A login strategy used only in tests.',
    contract: {},
    router: {},
    accessRules: [],
    register({ extensionPoints, pluginId }) {
      const registrar = extensionPoints.get(authStrategyExtensionPoint, pluginId);
      for (const strategy of strategies) registrar.register(strategy);
    },
  });
  const harness = await startPluginHarness([plugin, strategyPlugin], database.db);
  const authentication = harness.authentication!;

  const meta: RouteMeta = {
    requestId: 'test-request',
    logger: silentLogger,
    db: database.db,
    principal: async () => {
      throw new Error('not used');
    },
  };

  return {
    plugin,
    database,
    db: database.db,
    harness,
    authentication,
    resolve: (request: Request) => authentication.resolvePrincipal(request),
    as: (principal: Principal) => harness.client('auth', authContract, principal),
    /** Calls the raw route that serves `method path`, as the server would. */
    async route(method: string, path: string, init: RequestInit = {}) {
      const request = new Request(`${BASE_URL}${path}`, { method, ...init });
      for (const route of mountedRoutes([plugin])) {
        if (route.method !== method) continue;
        const params = matchPath(route.path, path);
        if (params) return route.handle(request, params, meta);
      }
      throw new Error(`No route for ${method} ${path}`);
    },
    async close() {
      await harness.stop();
      await database.close();
    },
  };
}

export type AuthTestKit = Awaited<ReturnType<typeof startAuth>>;

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const expected = pattern.split('/');
  const actual = path.split('?')[0]!.split('/');
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of expected.entries()) {
    if (segment.startsWith(':')) params[segment.slice(1)] = actual[index]!;
    else if (segment !== actual[index]) return undefined;
  }
  return params;
}

/** The session token in a response's `Set-Cookie`, if any. */
export function sessionTokenOf(response: Response): string | undefined {
  return /checkline_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
}

export const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
