import type { AnyPlugin, Logger, Runtime } from '@checkline/core';
import { mountedRoutes } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { Hono } from 'hono';
import type { AppContext, AppEnv } from './env.ts';
import { otherEndpoint } from './error-envelope.ts';
import { errorResponse } from './errors.ts';
import { fail, scoped } from './scoped.ts';
import { customDomains } from './custom-domains.ts';
import { mountDocsRoutes } from './docs-routes.ts';
import { mountHealthRoutes } from './health-routes.ts';
import { mountMetricsRoute } from './metrics-route.ts';
import { recordRequests } from './request-metrics.ts';
import { logAccess } from './access-log.ts';
import { secretPathPrefixes } from './secret-paths.ts';
import { assignRequestId, limitBody, stampClientIp } from './middleware.ts';
import { defaultBaseUrl, generateOpenApiDocument } from './openapi.ts';
import type { PrincipalResolver } from './principal-resolver.ts';
import { resolveEveryoneAsAnonymous } from './principal-resolver.ts';
import type { RouteContentSecurityPolicy } from './security-headers.ts';
import { securityHeaders } from './security-headers.ts';
import { mountKeyedSurface, mountRestSurface, mountRpcSurface } from './surfaces.ts';
import { apiPathPrefixes, mountWebUi, webUiContentSecurityPolicy } from './web-ui.ts';

/**
 * Routes that serve HTML pages and so need a looser Content-Security-Policy than the API's
 * `default-src 'none'` (an interactive reference at /api/docs loads its script and styles):
 * add `{ pathPrefix, policy }` here; `frame-ancestors 'none'` and the other headers stay.
 */
const pagePolicies: RouteContentSecurityPolicy[] = [
  {
    // The pages a status-page subscription link opens: inline styles, one form posting to itself.
    pathPrefix: '/api/statuspage/subscriptions',
    policy: "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'",
  },
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
  /** Where the web UI is reached (`FRONTEND_URL`): its host, like `baseUrl`'s, is the server's own. */
  frontendUrl?: string;
  /** The web UI's production build (`apps/web/dist`), served at `/`; unset: no UI routes. */
  webDistDir?: string;
  /** Bearer token of `GET /metrics` (`METRICS_TOKEN`); unset: the endpoint answers 404. */
  metricsToken?: string | undefined;
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
  // With the web UI mounted, every path outside the API is one of its pages.
  const webUiPolicy = {
    pathPrefix: '/',
    exceptPrefixes: apiPathPrefixes,
    policy: webUiContentSecurityPolicy,
  };
  app.use(securityHeaders(options.webDistDir ? [webUiPolicy, ...pagePolicies] : pagePolicies));
  app.use(assignRequestId(logger));
  app.use(recordRequests(runtime.metrics));
  app.use(logAccess(logger, secretPathPrefixes(plugins)));
  app.use(stampClientIp());
  // Before everything a request could reach: a custom domain reaches only what its page serves.
  app.use(
    customDomains(
      plugins,
      [options.baseUrl, options.frontendUrl].filter((url): url is string => url !== undefined),
    ),
  );
  app.use('/api/*', limitBody());
  app.use('/rest/*', limitBody());

  mountHealthRoutes(app, database);
  mountMetricsRoute(app, runtime.metrics, options.metricsToken);
  for (const route of mountedRoutes(plugins)) {
    app.on(
      route.method,
      route.path,
      otherEndpoint((c: AppContext) => {
        c.set('metricsLabels', { surface: 'route', plugin: route.pluginId, procedure: route.path });
        return route.handle(c.req.raw, c.req.param(), {
          requestId: c.var.requestId,
          logger: c.var.logger,
          db: database.db,
          principal: async () => {
            const principal = await resolvePrincipal(c.req.raw);
            c.set('principal', principal);
            return principal;
          },
        });
      }),
    );
  }
  app.get('/api/openapi.json', (c) =>
    withScope(c, async (context) =>
      context.principal.kind === 'anonymous'
        ? errorResponse('UNAUTHORIZED', 'Authentication required', c.var.requestId)
        : new Response(openapiJson, { headers: { 'content-type': 'application/json' } }),
    ),
  );
  mountDocsRoutes(app, withScope, openapi);
  mountKeyedSurface(app, runtime.router, database.db, withScope);
  mountRpcSurface(app, runtime.router, withScope);
  mountRestSurface(app, runtime.router, plugins, withScope);
  if (options.webDistDir) mountWebUi(app, options.webDistDir);

  app.notFound((c) => errorResponse('NOT_FOUND', 'Not found', c.var.requestId));
  app.onError((error, c) => fail(c, error));
  return { app, openapi };
}

export type CheckLineApp = Awaited<ReturnType<typeof createApp>>;
