import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AnyPlugin, AppErrorData, Logger, RequestContext } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { SmartCoercionPlugin } from '@orpc/json-schema';
import { OpenAPIHandler } from '@orpc/openapi/fetch';
import { RPCHandler } from '@orpc/server/fetch';
import { Hono } from 'hono';
import type { Context as HonoContext, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorBody, errorResponse, normalizeError } from './errors.ts';
import { createKeyedDispatcher, KeyedCallError } from './keyed-rpc.ts';
import { generateOpenApiDocument, schemaConverters } from './openapi.ts';
import type { PrincipalResolver } from './principal-resolver.ts';
import { resolveEveryoneAsAnonymous } from './principal-resolver.ts';
import { createRequestScope } from './request-context.ts';
import { restRoutes } from './rest-routes.ts';
import type { Runtime } from '@checkline/core';
import { lazyChild } from '@checkline/core';

/** The header carrying the caller's socket address to plugins (auth's rate limits). */
export const CLIENT_IP_HEADER = 'x-checkline-client-ip';

/** Largest request body accepted on the API surfaces (API.md 1.1). */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface AppOptions {
  database: DatabaseHandle;
  plugins: readonly AnyPlugin[];
  logger: Logger;
  /** Fills the principal of each request; every caller is anonymous without one. */
  resolvePrincipal?: PrincipalResolver;
  runtime: Runtime;
  version?: string;
  /** Routes registered before any middleware (the benchmark's baselines). */
  mountFirst?: (app: Hono) => void;
}

type Env = { Variables: { requestId: string; logger: Logger } };

export async function createApp(options: AppOptions) {
  const { database, plugins, logger, runtime } = options;
  const { router } = runtime;
  const scopeDeps = {
    db: database.db,
    runtime,
    resolvePrincipal: options.resolvePrincipal ?? resolveEveryoneAsAnonymous,
  };
  const openapi = await generateOpenApiDocument(plugins, { version: options.version ?? '0.0.0' });
  const openapiJson = JSON.stringify(openapi);
  const routes = restRoutes(plugins);
  const keyed = new Map(
    Object.entries(router).map(([id, pluginRouter]) => [
      id,
      createKeyedDispatcher(pluginRouter, database.db),
    ]),
  );

  const normalizeInterceptor = async ({
    next,
    context,
  }: {
    next: () => Promise<unknown>;
    context: RequestContext;
  }) => {
    try {
      return await next();
    } catch (error) {
      throw normalizeError(error, context.logger, context.requestId);
    }
  };
  const rpcHandler = new RPCHandler<RequestContext>(router, {
    clientInterceptors: [normalizeInterceptor],
  });
  const restHandler = new OpenAPIHandler<RequestContext>(router, {
    plugins: [new SmartCoercionPlugin({ schemaConverters })],
    clientInterceptors: [normalizeInterceptor],
    customErrorResponseBodyEncoder: (error) => errorBody(error),
  });

  const app = new Hono<Env>();
  options.mountFirst?.(app as unknown as Hono);
  const fail = (c: HonoContext<Env>, error: unknown, procedure?: string) => {
    const normalized = normalizeError(error, c.var.logger, c.var.requestId);
    const retryAfter = (normalized.data as AppErrorData | undefined)?.retryAfter;
    return Response.json(errorBody(normalized, procedure), {
      status: normalized.status,
      ...(retryAfter !== undefined && { headers: { 'retry-after': String(retryAfter) } }),
    });
  };
  const withScope = async (
    c: HonoContext<Env>,
    handle: (context: RequestContext) => Promise<Response>,
  ): Promise<Response> => {
    let scope;
    try {
      scope = await createRequestScope(scopeDeps, c.req.raw, c.var.requestId, c.var.logger);
    } catch (error) {
      return fail(c, error);
    }
    const response = await handle(scope.context);
    if (response.status < 400) scope.committed();
    return response;
  };

  app.use(async function assignRequestId(c, next) {
    const requestId = randomUUID();
    c.set('requestId', requestId);
    c.set('logger', lazyChild(logger, { requestId }));
    await next();
    c.res.headers.set('x-request-id', requestId);
  });

  app.use(async function stampClientIp(c, next) {
    // Only the socket says who connected; a client-sent value of this header is never trusted.
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const ip = incoming?.socket.remoteAddress;
    if (ip) c.req.raw.headers.set(CLIENT_IP_HEADER, ip);
    else c.req.raw.headers.delete(CLIENT_IP_HEADER);
    await next();
  });

  const limitStreamedBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) =>
      errorResponse('PAYLOAD_TOO_LARGE', 'The body is larger than 1 MiB', c.get('requestId')),
  });
  // Hono's bodyLimit touches `request.body`, which makes the node adapter build a full Request
  // for every call; a declared length needs only its header (node holds the body to it).
  const limitBody: MiddlewareHandler<Env> = async function limitBody(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared === undefined) return limitStreamedBody(c, next);
    if (Number(declared) > MAX_BODY_BYTES) {
      return errorResponse('PAYLOAD_TOO_LARGE', 'The body is larger than 1 MiB', c.var.requestId);
    }
    return next();
  };
  app.use('/api/*', limitBody);
  app.use('/rest/*', limitBody);

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await withTimeout(database.ping(), 2_000);
      return c.json({ status: 'ready', database: database.kind });
    } catch (error) {
      c.var.logger.warn({ err: error }, 'readiness check failed');
      return errorResponse('SERVICE_UNAVAILABLE', 'Database unreachable', c.var.requestId);
    }
  });

  for (const plugin of plugins) {
    for (const route of plugin.routes ?? []) {
      app.on(route.method, route.path, (c) =>
        route.handle(c.req.raw, c.req.param() as Record<string, string>, {
          requestId: c.var.requestId,
          logger: c.var.logger,
          principal: () => scopeDeps.resolvePrincipal(c.req.raw),
        }),
      );
    }
  }

  app.get('/api/openapi.json', (c) =>
    withScope(c, async (context) =>
      context.principal.kind === 'anonymous'
        ? errorResponse('UNAUTHORIZED', 'Authentication required', c.var.requestId)
        : new Response(openapiJson, { headers: { 'content-type': 'application/json' } }),
    ),
  );

  const keyedRoute = (c: HonoContext<Env>) => {
    const dispatch = keyed.get(c.req.param('pluginId') ?? '');
    if (!dispatch) {
      return errorResponse(
        'NOT_FOUND',
        `Unknown plugin ${c.req.param('pluginId')}`,
        c.var.requestId,
      );
    }
    return withScope(c, async (context) => {
      try {
        return Response.json(await dispatch(await c.req.text(), context));
      } catch (error) {
        if (error instanceof KeyedCallError) return fail(c, error.error, error.procedure);
        return fail(c, error);
      }
    });
  };
  app.post('/api/:pluginId/', keyedRoute);
  app.post('/api/:pluginId', keyedRoute);

  app.all('/api/:pluginId/:procedure', (c) =>
    withScope(c, async (context) => {
      const { matched, response } = await rpcHandler.handle(c.req.raw, { prefix: '/api', context });
      return matched ? response : errorResponse('NOT_FOUND', 'Unknown procedure', c.var.requestId);
    }),
  );

  app.all('/rest/:pluginId/:procedure', (c) => {
    const method = routes.get(c.req.path);
    if (!method) return errorResponse('NOT_FOUND', 'Unknown procedure', c.var.requestId);
    if (c.req.method !== method) {
      return errorResponse(
        'METHOD_NOT_ALLOWED',
        `Use ${method} for ${c.req.path}`,
        c.var.requestId,
        {
          headers: { allow: method },
        },
      );
    }
    return withScope(c, async (context) => {
      const { matched, response } = await restHandler.handle(c.req.raw, { context });
      return matched ? response : errorResponse('NOT_FOUND', 'Unknown procedure', c.var.requestId);
    });
  });

  app.notFound((c) => errorResponse('NOT_FOUND', 'Not found', c.var.requestId));
  app.onError((error, c) => fail(c, error));

  return { app, openapi };
}

export type CheckLineApp = Awaited<ReturnType<typeof createApp>>;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
