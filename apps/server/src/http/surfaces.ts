import { badRequest, type AnyPlugin, type RequestContext } from '@checkline/core';
import type { Database } from '@checkline/db';
import { SmartCoercionPlugin } from '@orpc/json-schema';
import { OpenAPIHandler } from '@orpc/openapi/fetch';
import { ORPCError, type AnyRouter } from '@orpc/server';
import { RPCHandler } from '@orpc/server/fetch';
import type { Hono, Next } from 'hono';
import type { AppContext, AppEnv } from './env.ts';
import { rpcEndpoint } from './error-envelope.ts';
import { errorBody, errorResponse, normalizeError } from './errors.ts';
import { createKeyedDispatcher, KeyedCallError } from './keyed-rpc.ts';
import { schemaConverters } from './openapi.ts';
import { QueryArrayPlugin } from './query-arrays.ts';
import { restProceduresOf, restRoutes } from './rest-routes.ts';
import { noteRetryAfter, withRetryAfter } from './retry-after.ts';
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
    const normalized = normalizeError(error, context.logger, context.requestId);
    noteRetryAfter(context, normalized);
    throw normalized;
  }
}

/**
 * What oRPC's handlers raise before calling the procedure (a body that is not JSON) leaves them
 * as BAD_REQUEST with the request id, like every other error; the call's own errors come
 * normalised already.
 */
async function normalizeBeforeCall<T>({
  next,
  context,
}: {
  next: () => Promise<T>;
  context: RequestContext;
}): Promise<T> {
  try {
    return await next();
  } catch (error) {
    const refused =
      error instanceof ORPCError
        ? error
        : badRequest('Malformed request: the body is not valid JSON for this procedure');
    throw normalizeError(refused, context.logger, context.requestId);
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

/** `POST /api/{pluginId}/`: keyed calls and batches. */
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
    const labels = { surface: 'keyed', plugin: pluginId, procedure: '' };
    c.set('metricsLabels', labels);
    return withScope(c, async (context) => {
      try {
        const named = (keys: readonly string[]) => {
          labels.procedure = keys.length === 1 ? keys[0]! : 'batch';
        };
        return Response.json(await dispatch(await c.req.text(), context, named));
      } catch (error) {
        if (error instanceof KeyedCallError) return fail(c, error.error, error.procedure);
        return fail(c, error);
      }
    });
  };
  app.post('/api/:pluginId/', keyedRoute);
  app.post('/api/:pluginId', keyedRoute);
  // A plugin's mount takes POST only: another method is 405 naming it (HEAD is GET without the
  // body here); a name that is no plugin falls through to the routes after, and to 404.
  const wrongMethod = async (c: AppContext, next: Next) => {
    if (!dispatchers.has(c.req.param('pluginId') ?? '')) return next();
    return errorResponse('METHOD_NOT_ALLOWED', `Use POST for ${c.req.path}`, c.var.requestId, {
      headers: { allow: 'POST' },
    });
  };
  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], ['/api/:pluginId/', '/api/:pluginId'], wrongMethod);
}

/** `/api/{pluginId}/{procedure}`: oRPC's own protocol, for `@orpc/client`. */
export function mountRpcSurface(
  app: Hono<AppEnv>,
  router: Record<string, AnyRouter>,
  withScope: WithScope,
) {
  const handler = new RPCHandler<RequestContext>(router, {
    interceptors: [normalizeBeforeCall],
    clientInterceptors: [normalizeErrors],
  });
  const answerUnknown = unknownRoute(router);
  const known = new Map(
    Object.entries(router).map(([id, pluginRouter]) => [id, proceduresOf(pluginRouter)]),
  );
  app.all(
    '/api/:pluginId/:procedure',
    rpcEndpoint((c: AppContext) =>
      withScope(c, async (context) => {
        const plugin = c.req.param('pluginId') ?? '';
        const procedure = c.req.param('procedure') ?? '';
        if (known.get(plugin)?.has(procedure)) {
          c.set('metricsLabels', { surface: 'rpc', plugin, procedure });
        }
        const { matched, response } = await handler.handle(c.req.raw, { prefix: '/api', context });
        return matched ? withRetryAfter(response, context) : answerUnknown(c);
      }),
    ),
  );
}

/**
 * `/rest/{pluginId}/{procedure}`: 405 with `Allow` from the method table derived from
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
  const restProcedures = restProceduresOf(plugins);
  const answerUnknown = unknownRoute(router);
  const handler = new OpenAPIHandler<RequestContext>(router, {
    plugins: [
      new SmartCoercionPlugin({ schemaConverters }),
      new QueryArrayPlugin(schemaConverters),
    ],
    interceptors: [normalizeBeforeCall],
    clientInterceptors: [normalizeErrors],
    customErrorResponseBodyEncoder: (error) => errorBody(error),
  });
  app.all('/rest/:pluginId/:procedure', (c) => {
    const method = methods.get(c.req.path);
    if (!method) return answerUnknown(c);
    c.set('metricsLabels', { surface: 'rest', ...restProcedures.get(c.req.path)! });
    // HEAD on a read answers what GET would, without the body (RFC 9110 §9.3.2).
    const head = c.req.method === 'HEAD' && method === 'GET';
    if (c.req.method !== method && !head) {
      return errorResponse(
        'METHOD_NOT_ALLOWED',
        `Use ${method} for ${c.req.path}`,
        c.var.requestId,
        {
          headers: { allow: method === 'GET' ? 'GET, HEAD' : method },
        },
      );
    }
    const request = head ? new Request(c.req.raw, { method: 'GET' }) : c.req.raw;
    return withScope(c, async (context) => {
      const { matched, response } = await handler.handle(request, { context });
      if (!matched) return answerUnknown(c);
      const answer = withRetryAfter(response, context);
      if (!head) return answer;
      await answer.body?.cancel();
      return new Response(null, { status: answer.status, headers: answer.headers });
    });
  });
}
