import type { AnyPlugin, Logger, Runtime } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { Hono } from 'hono';
import type { AppEnv } from './env.ts';
import { errorResponse } from './errors.ts';
import { fail, scoped } from './scoped.ts';
import { mountDocsRoutes } from './docs-routes.ts';
import { mountHealthRoutes } from './health-routes.ts';
import { logAccess, pathWithoutSecrets } from './access-log.ts';
import { assignRequestId, limitBody, stampClientIp } from './middleware.ts';
import { defaultBaseUrl, generateOpenApiDocument } from './openapi.ts';
import type { PrincipalResolver } from './principal-resolver.ts';
import { resolveEveryoneAsAnonymous } from './principal-resolver.ts';
import type { RouteContentSecurityPolicy } from './security-headers.ts';
import { securityHeaders } from './security-headers.ts';
import { mountKeyedSurface, mountRestSurface, mountRpcSurface } from './surfaces.ts';

export { CLIENT_IP_HEADER, MAX_BODY_BYTES } from './middleware.ts';

/**
 * Routes that serve HTML pages and so need a looser Content-Security-Policy than the API's
 * `default-src 'none'` (an interactive reference at /api/docs loads its script and styles):
 * add `{ pathPrefix, policy }` here; `frame-ancestors 'none'` and the other headers stay.
 */
const pagePolicies: RouteContentSecurityPolicy[] = [
  {
    // Scalar's page starts with an inline configuration script and injects its own styles; it
    // loads everything else from this server (no CDN, fonts or telemetry).
    pathPrefix: '/api/docs',
    policy:
      "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'",
  },
];

export interface AppOptions {
  database: DatabaseHandle;
  plugins: readonly AnyPlugin[];
  logger: Logger;
  /** Fills the principal of each request; every caller is anonymous without one. */
  resolvePrincipal?: PrincipalResolver;
  runtime: Runtime;
  version?: string;
  /** The public address of the API (`BASE_URL`), named as the OpenAPI document's server. */
  baseUrl?: string;
  /** Routes registered before any middleware (the benchmark's baselines). */
  mountFirst?: (app: Hono) => void;
}

/**
 * The Hono app: middleware, health, plugin routes, the OpenAPI document and the three surfaces.
 * Everything here is built once; nothing per request but the request's own scope.
 */
export async function createApp(options: AppOptions) {
  const { database, plugins, logger, runtime } = options;
  const resolvePrincipal = options.resolvePrincipal ?? resolveEveryoneAsAnonymous;
  const withScope = scoped({ db: database.db, runtime, resolvePrincipal });
  const openapi = await generateOpenApiDocument(plugins, {
    version: options.version ?? '0.0.0',
    baseUrl: options.baseUrl ?? defaultBaseUrl,
  });
  const openapiJson = JSON.stringify(openapi);

  const app = new Hono<AppEnv>();
  options.mountFirst?.(app as unknown as Hono);
  app.use(securityHeaders(pagePolicies));
  app.use(assignRequestId(logger));
  app.use(logAccess(logger));
  app.use(stampClientIp());
  app.use('/api/*', limitBody());
  app.use('/rest/*', limitBody());

  mountHealthRoutes(app, database);
  for (const plugin of plugins) {
    for (const route of plugin.routes ?? []) {
      app.on(route.method, route.path, (c) => {
        if (route.secretParams) {
          c.set('loggedPath', pathWithoutSecrets(route.path, route.secretParams, c.req.path));
        }
        return route.handle(c.req.raw, c.req.param() as Record<string, string>, {
          requestId: c.var.requestId,
          logger: c.var.logger,
          principal: async () => {
            const principal = await resolvePrincipal(c.req.raw);
            c.set('principal', principal);
            return principal;
          },
        });
      });
    }
  }
  app.get('/api/openapi.json', (c) =>
    withScope(c, async (context) =>
      context.principal.kind === 'anonymous'
        ? errorResponse('UNAUTHORIZED', 'Authentication required', c.var.requestId)
        : new Response(openapiJson, { headers: { 'content-type': 'application/json' } }),
    ),
  );
  mountDocsRoutes(app, withScope);
  mountKeyedSurface(app, runtime.router, database.db, withScope);
  mountRpcSurface(app, runtime.router, withScope);
  mountRestSurface(app, runtime.router, plugins, withScope);

  app.notFound((c) => errorResponse('NOT_FOUND', 'Not found', c.var.requestId));
  app.onError((error, c) => fail(c, error));
  return { app, openapi };
}

export type CheckLineApp = Awaited<ReturnType<typeof createApp>>;
