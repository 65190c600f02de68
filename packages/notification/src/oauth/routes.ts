import { redirectToError } from '@checkline/auth';
import type { PluginRoute, Principal, RouteMeta } from '@checkline/core';
import type { z } from 'zod';
import type { NotificationState } from '../state.ts';
import type { ActionAnswer } from './link-actions.ts';
import { refreshLink, unlinkAccount } from './link-actions.ts';
import { finishLink, LinkError, OAUTH_ROUTE, startLink } from './link-flow.ts';
import { oauthPaths } from './openapi.ts';
import { AuthQuerySchema, CallbackQuerySchema } from './schemas.ts';

const noStore = { 'cache-control': 'no-store' };

/** The session's principal; a missing or invalid session is no principal (the flow says so). */
async function principalOf(meta: RouteMeta): Promise<Principal | undefined> {
  try {
    return await meta.principal();
  } catch {
    return undefined;
  }
}

/** Browser routes end on a page: success where the flow says, any failure on the error page. */
async function browserRoute(
  state: NotificationState,
  meta: RouteMeta,
  run: () => Promise<string>,
): Promise<Response> {
  try {
    return new Response(null, { status: 302, headers: { location: await run(), ...noStore } });
  } catch (error) {
    if (error instanceof LinkError) return redirectToError(error.message, state.frontendUrl);
    meta.logger.error({ err: error }, 'account linking failed');
    return redirectToError('Linking the account failed, please try again', state.frontendUrl);
  }
}

/** The query's single-valued parameters through `schema`; anything else is a LinkError. */
function queryOf<T>(request: Request, schema: z.ZodType<T>): T {
  const params = new URL(request.url).searchParams;
  const parsed = schema.safeParse(Object.fromEntries(params));
  if (!parsed.success) throw new LinkError('The address of this page is not valid');
  return parsed.data;
}

function json(answer: ActionAnswer, meta: RouteMeta): Response {
  const body =
    answer.status === 200
      ? answer.body
      : { code: answer.code, message: answer.message, requestId: meta.requestId };
  return Response.json(body, { status: answer.status, headers: noStore });
}

/**
 * The linking routes of every strategy with `oauth`: they take the strategy id as a
 * path parameter, so strategies registered by any plugin are served without registration.
 */
export function oauthRoutes(state: NotificationState): PluginRoute[] {
  const path = (action: string) => `${OAUTH_ROUTE}/:strategyId/${action}`;
  return [
    {
      method: 'GET',
      path: path('auth'),
      openapi: oauthPaths,
      handle: async (request, params, meta) =>
        browserRoute(state, meta, async () =>
          startLink(state, {
            strategyId: params.strategyId ?? '',
            principal: await principalOf(meta),
            returnTo: queryOf(request, AuthQuerySchema).returnTo,
          }),
        ),
    },
    {
      method: 'GET',
      path: path('callback'),
      handle: async (request, params, meta) =>
        browserRoute(state, meta, async () =>
          finishLink(state, {
            strategyId: params.strategyId ?? '',
            principal: await principalOf(meta),
            query: queryOf(request, CallbackQuerySchema),
          }),
        ),
    },
    {
      method: 'POST',
      path: path('refresh'),
      // An invalid session or a cross-site request throws: the server answers it as JSON.
      handle: async (_request, params, meta) =>
        json(await refreshLink(state, params.strategyId ?? '', await meta.principal()), meta),
    },
    {
      method: 'DELETE',
      path: path('unlink'),
      handle: async (_request, params, meta) =>
        json(await unlinkAccount(state, params.strategyId ?? '', await meta.principal()), meta),
    },
  ];
}
