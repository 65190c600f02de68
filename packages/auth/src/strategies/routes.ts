import type { PluginRoute, RouteMeta } from '@checkline/core';
import { clearedSessionCookie } from '../cookies.ts';
import { redirectToError } from '../error-redirect.ts';
import { clientIp } from '../rate-limit.ts';
import type { AuthState } from '../state.ts';
import { endPresentedSession, strategyContext, tooManyAttempts } from './context.ts';
import { successContent } from './openapi.ts';
import { AuthStrategyError } from './strategy.ts';

/** Raw routes live under this prefix, which clients rely on, not under the plugin id. */
/** The segment after `/api/` of auth's routes: sign-in URLs have always been `/api/auth-backend/...`. */
export const AUTH_ROUTE_SEGMENT = 'auth-backend';
/** Where auth's routes answer (sign-in, callback and logout URLs are built on it). */
export const ROUTE_PREFIX = `/api/${AUTH_ROUTE_SEGMENT}`;

const jsonError = (status: number, code: string, message: string, requestId: string) =>
  Response.json({ code, message, requestId }, { status });

/**
 * Every failure of a strategy ends on the error page, never as JSON: its own message when it
 * threw an {@link AuthStrategyError}, a generic one (the details logged) for anything else.
 */
function failureRedirect(state: AuthState, error: unknown, meta: RouteMeta): Response {
  const expected = error instanceof AuthStrategyError ? error : tooManyAttempts(error);
  if (expected)
    return redirectToError(expected.message, state.config.frontendUrl, expected.headers);
  meta.logger.error({ err: error }, 'sign-in strategy failed');
  return redirectToError('Sign-in failed, please try again', state.config.frontendUrl);
}

function crossSite(state: AuthState, request: Request): boolean {
  const origin = request.headers.get('origin');
  return origin !== null && !state.config.allowedOrigins.has(origin);
}

const logoutOperation = {
  operationId: 'auth.logout',
  tags: ['auth'],
  summary: 'Ends the session of the cookie sent and clears the cookie.',
  description:
    'Answers 200 whether or not a session was found. With the session cookie, `Origin` must be the server or the web UI and the request `application/json`, as for every change made with the cookie.',
  security: [{ sessionCookie: [] }, {}],
  // Body-less without a cookie; with it, a change must come as JSON (`{}`).
  requestBody: {
    required: false,
    content: { 'application/json': { schema: { type: 'object', additionalProperties: false } } },
  },
  responses: {
    '200': {
      description: 'Signed out; the session cookie is cleared.',
      content: successContent,
    },
    '403': { $ref: '#/components/responses/Forbidden' },
  },
};

export function authRoutes(state: AuthState): PluginRoute[] {
  async function dispatch(request: Request, params: Record<string, string>, meta: RouteMeta) {
    const strategy = state.strategies.get(params.strategyId ?? '');
    const action = strategy?.actions[params.action ?? ''];
    if (!action || action.method !== request.method) {
      return jsonError(404, 'NOT_FOUND', 'Unknown sign-in route', meta.requestId);
    }
    try {
      if (request.method === 'POST' && crossSite(state, request)) {
        throw new AuthStrategyError('Sign-in from another site is not allowed');
      }
      await state.limits.assertMayAuthenticate(clientIp(request, state.config.trustProxy));
      return await action.handle(strategyContext(state, request, params, meta));
    } catch (error) {
      return failureRedirect(state, error, meta);
    }
  }

  // A refusal throws: the server answers it as JSON, like any other cookie-carrying change.
  async function logout(request: Request) {
    state.authenticator.assertCookieChangeAllowed(request);
    await endPresentedSession(state, request);
    return Response.json(
      { success: true },
      {
        headers: {
          'set-cookie': clearedSessionCookie(state.config.secureCookie),
          'cache-control': 'no-store',
        },
      },
    );
  }

  /** Each registered strategy's actions that describe themselves, at their concrete paths. */
  function strategyPaths() {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const strategy of state.strategies.list()) {
      for (const [name, action] of Object.entries(strategy.actions)) {
        if (!action.openapi) continue;
        paths[`/${strategy.id}/${name}`] = {
          [action.method.toLowerCase()]: {
            operationId: `auth.${strategy.id}.${name}`,
            tags: ['auth'],
            security: [],
            ...action.openapi,
          },
        };
      }
    }
    return paths;
  }

  return [
    {
      method: 'POST',
      path: '/logout',
      handle: logout,
      openapi: () => ({ '/logout': { post: logoutOperation } }),
    },
    {
      method: 'POST',
      path: '/:strategyId/:action',
      handle: dispatch,
      openapi: strategyPaths,
    },
    { method: 'GET', path: '/:strategyId/:action', handle: dispatch },
  ];
}
