import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { AnyPlugin, Principal } from '@checkline/core';
import { unauthorized } from '@checkline/core';
import type { AuthConfig } from '@checkline/auth';
import type { createHealthcheckPlugin } from '@checkline/healthcheck';
import type { NotificationOptions } from '@checkline/notification';
import { connectPostgres, type DatabaseHandle } from '@checkline/db';
import { createTestDatabase, testDatabaseUrl } from '@checkline/db/testing';
import { loadEnv } from '../../src/env.ts';
import type { SmtpSettings } from '../../src/plugins.ts';
import { createPlugins } from '../../src/plugins.ts';
import type { PrincipalResolver } from '../../src/http/principal-resolver.ts';
import { migrationsOf, startCheckline } from '../../src/start.ts';
import { createMemoryLogger } from './memory-logger.ts';

export interface TestServerOptions {
  plugins?: readonly AnyPlugin[];
  /**
   * Bearer tokens standing for principals, for tests that run before (or without) the auth
   * plugin: `Authorization: Bearer <token>` resolves to its principal, an unknown token is
   * UNAUTHORIZED, no header is anonymous. Leave unset to use the plugins' own authentication.
   */
  principals?: Record<string, Principal>;
  /** Plugins mounted after the server's own (channel plugins; ignored with `plugins`). */
  extraPlugins?: readonly AnyPlugin[];
  /** Settings of the auth plugin built from `testEnv` (ignored with `plugins`). */
  auth?: Partial<AuthConfig>;
  /** Settings of the notification plugin (ignored with `plugins`). */
  notification?: NotificationOptions;
  /** Settings of the e-mail channel plugin (ignored with `plugins`). */
  smtp?: SmtpSettings;
  /** On PostgreSQL: the server's own pool of this many connections (PGlite has one anyway). */
  poolSize?: number;
  /** A web UI build to serve at `/` (none by default). */
  webDistDir?: string;
  /** The server's public address (`BASE_URL`), for a browser that must reach it at that address. */
  baseUrl?: string;
  /** Bearer token of `GET /metrics` (`METRICS_TOKEN`); unset, the endpoint answers 404. */
  metricsToken?: string;
  /** A database of the test's own instead of a fresh test database (closed with the server). */
  database?: DatabaseHandle;
  /**
   * `false`: checks run only when a test asks (`runHealthCheck`); the scheduler stops once the
   * server has started. A new check is due at once, so otherwise the scheduler runs it beside
   * the test, and its result can change the system's status between the test's own steps.
   */
  scheduledChecks?: false;
}

/** The first admin of every test server (the auth plugin creates it on the empty database). */
export const testAdmin = { email: 'admin@example.com', password: 'test-admin-password' };

const testEnvSource = {
  NODE_ENV: 'test',
  BASE_URL: 'http://localhost:3000',
  ADMIN_EMAIL: testAdmin.email,
  ADMIN_PASSWORD: testAdmin.password,
  // Test targets listen on loopback, which the health-check policy refuses by default.
  CHECK_TARGETS_ALLOW: '127.0.0.0/8,::1',
};

/** The environment test servers are built from; never `process.env`. */
export const testEnv = loadEnv(testEnvSource);

function tokenResolver(principals: Record<string, Principal>): PrincipalResolver {
  return async (request) => {
    const header = request.headers.get('authorization');
    if (!header)
      return { kind: 'anonymous', id: null, accessRules: [], teamIds: [], isAdmin: false };
    const principal = principals[header.replace(/^Bearer /, '')];
    if (!principal) throw unauthorized('Invalid credentials');
    return principal;
  };
}

function healthcheckOf(plugins: readonly AnyPlugin[]) {
  const healthcheck = plugins.find((plugin) => plugin.id === 'healthcheck');
  if (!healthcheck) throw new Error('scheduledChecks: the server mounts no healthcheck plugin');
  return healthcheck as AnyPlugin & ReturnType<typeof createHealthcheckPlugin>;
}

/** The whole server on a fresh test database, driven through `app.request()`. */
export async function createTestServer(options: TestServerOptions = {}) {
  const env = options.baseUrl ? loadEnv({ ...testEnvSource, BASE_URL: options.baseUrl }) : testEnv;
  const plugins =
    options.plugins ??
    createPlugins(env, options.auth, options.extraPlugins, options.notification, options.smtp);
  // Migrated already (from the template); starting the server finds nothing left to apply.
  const testDatabase = options.database ?? (await createTestDatabase(migrationsOf(plugins)));
  const url = testDatabaseUrl(testDatabase);
  const database =
    options.poolSize !== undefined && url
      ? connectPostgres(url, { poolSize: options.poolSize })
      : testDatabase;
  const { logger, lines } = createMemoryLogger();
  const checkline = await startCheckline({
    database,
    plugins,
    logger,
    webDistDir: options.webDistDir,
    metricsToken: options.metricsToken,
    ...(options.principals && { resolvePrincipal: tokenResolver(options.principals) }),
  });
  const { app } = checkline;
  if (options.scheduledChecks === false) await healthcheckOf(checkline.plugins).scheduler().stop();

  const headersFor = (token?: string, extra?: Record<string, string>) => {
    const headers = new Headers(extra);
    if (token) headers.set('authorization', `Bearer ${token}`);
    return headers;
  };

  return {
    app,
    checkline,
    database,
    logLines: lines,
    request: (path: string, init?: RequestInit) => app.request(path, init),
    /** POST /api/{pluginId}/ with a JSON body. */
    keyed(pluginId: string, body: unknown, token?: string) {
      return app.request(`/api/${pluginId}/`, {
        method: 'POST',
        headers: headersFor(token, { 'content-type': 'application/json' }),
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    /** A REST call; `query` is appended as is, `body` sent as JSON. */
    rest(
      method: string,
      path: string,
      opts: {
        token?: string;
        query?: string;
        body?: unknown;
        /** Sent as well (a session's cookie and origin). */
        headers?: Record<string, string>;
      } = {},
    ) {
      const headers = headersFor(opts.token, opts.headers);
      if (opts.body !== undefined) headers.set('content-type', 'application/json');
      return app.request(`/rest/${path}${opts.query ? `?${opts.query}` : ''}`, {
        method,
        headers,
        ...(opts.body !== undefined && { body: JSON.stringify(opts.body) }),
      });
    },
    /**
     * Signs a person in through the credential strategy and answers the headers a browser would
     * send with their session: the cookie and our own Origin. Throws when the sign-in fails.
     */
    async sessionOf(email: string, password: string): Promise<{ cookie: string; origin: string }> {
      const login = await app.request('/api/auth-backend/custom/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: email, password }),
      });
      const cookie = /checkline_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0];
      if (login.status !== 200 || !cookie) {
        throw new Error(`sign-in of ${email} failed: ${login.status}`);
      }
      return { cookie, origin: env.BASE_URL };
    },
    /** The test admin's session headers (see `sessionOf`). */
    adminSession(): Promise<{ cookie: string; origin: string }> {
      return this.sessionOf(testAdmin.email, testAdmin.password);
    },
    /** Serves the app on a loopback port (a free one unless given), for real clients. */
    async listen(requestedPort = 0) {
      const server = serve({ fetch: app.fetch, port: requestedPort, hostname: '127.0.0.1' });
      await new Promise<void>((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    },
    async close() {
      await checkline.stop();
      if (database !== testDatabase) await database.close();
      await testDatabase.close();
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof createTestServer>>;
