import type { AnyPlugin, RequestContext } from '@checkline/core';
import type { Database } from '@checkline/db';
import { SmartCoercionPlugin } from '@orpc/json-schema';
import { OpenAPIHandler } from '@orpc/openapi/fetch';
import type { AnyRouter } from '@orpc/server';
import { RPCHandler } from '@orpc/server/fetch';
import type { Hono } from 'hono';
import type { AppContext, AppEnv } from './env.ts';
import { errorBody, errorResponse, normalizeError } from './errors.ts';
import { createKeyedDispatcher, KeyedCallError } from './keyed-rpc.ts';
import { schemaConverters } from './openapi.ts';
import { QueryArrayPlugin } from './query-arrays.ts';
import { restRoutes } from './rest-routes.ts';
import { fail, type WithScope } from './scoped.ts';
import { proceduresOf } from './plugin-router.ts';
import { unknownPlugin, unknownProcedure } from './unknown-names.ts';

/** Errors leave oRPC's handlers normalised: known codes kept, the rest a logged generic 500. */
async function normalizeErrors({
  next,
  context,
}: {
  next: () => Promise<unknown>;
  context: RequestContext;
}) {
  try {
    return await next();
  } catch (error) {
    throw normalizeError(error, context.logger, context.requestId);
  }
}

/** NOT_FOUND for `/{surface}/{pluginId}/{procedure}` naming what does exist. */
function unknownRoute(router: Record<string, AnyRouter>) {
  const pluginIds = Object.keys(router);
  const names = new Map(
    Object.entries(router).map(([id, pluginRouter]) => [
      id,
      [...proceduresOf(pluginRouter).keys()],
    ]),
  );
  return (c: AppContext) => {
    const pluginId = c.req.param('pluginId') ?? '';
    const known = names.get(pluginId);
    const error = known
      ? unknownProcedure(pluginId, c.req.param('procedure') ?? '', known)
      : unknownPlugin(pluginId, pluginIds);
    return fail(c, error);
  };
}

/** `POST /api/{pluginId}/`: keyed calls and batches (API.md 1.1). */
export function mountKeyedSurface(
  app: Hono<AppEnv>,
  router: Record<string, AnyRouter>,
  db: Database,
  withScope: WithScope,
) {
  const dispatchers = new Map(
    Object.entries(router).map(([id, pluginRouter]) => [
      id,
      createKeyedDispatcher(id, pluginRouter, db),
    ]),
  );
  const keyedRoute = (c: AppContext) => {
    const pluginId = c.req.param('pluginId') ?? '';
    const dispatch = dispatchers.get(pluginId);
    if (!dispatch) return fail(c, unknownPlugin(pluginId, [...dispatchers.keys()]));
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
}

/** `/api/{pluginId}/{procedure}`: oRPC's own protocol, for `@orpc/client` (API.md 1.2). */
export function mountRpcSurface(
  app: Hono<AppEnv>,
  router: Record<string, AnyRouter>,
  withScope: WithScope,
) {
  const handler = new RPCHandler<RequestContext>(router, { clientInterceptors: [normalizeErrors] });
  const answerUnknown = unknownRoute(router);
  app.all('/api/:pluginId/:procedure', (c) =>
    withScope(c, async (context) => {
      const { matched, response } = await handler.handle(c.req.raw, { prefix: '/api', context });
      return matched ? response : answerUnknown(c);
    }),
  );
}

/**
 * `/rest/{pluginId}/{procedure}` (API.md 1.3): 405 with `Allow` from the method table derived from
 * the contracts, then oRPC's OpenAPIHandler with bracket notation, single values as one-element
 * arrays, and smart coercion.
 */
export function mountRestSurface(
  app: Hono<AppEnv>,
  router: Record<string, AnyRouter>,
  plugins: readonly AnyPlugin[],
  withScope: WithScope,
) {
  const methods = restRoutes(plugins);
  const answerUnknown = unknownRoute(router);
  const handler = new OpenAPIHandler<RequestContext>(router, {
    plugins: [
      new SmartCoercionPlugin({ schemaConverters }),
      new QueryArrayPlugin(schemaConverters),
    ],
    clientInterceptors: [normalizeErrors],
    customErrorResponseBodyEncoder: (error) => errorBody(error),
  });
  app.all('/rest/:pluginId/:procedure', (c) => {
    const method = methods.get(c.req.path);
    if (!method) return answerUnknown(c);
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
      const { matched, response } = await handler.handle(c.req.raw, { context });
      return matched ? response : answerUnknown(c);
    });
  });
}
