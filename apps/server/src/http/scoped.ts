import type { AppErrorData, RequestContext } from '@checkline/core';
import type { AppContext } from './env.ts';
import { errorBody, normalizeError } from './errors.ts';
import type { RequestScopeDeps } from './request-context.ts';
import { createRequestScope } from './request-context.ts';

/** The error object for anything thrown, with `Retry-After` when the error carries one. */
export function fail(c: AppContext, error: unknown, procedure?: string): Response {
  const normalized = normalizeError(error, c.var.logger, c.var.requestId);
  const retryAfter = (normalized.data as AppErrorData | undefined)?.retryAfter;
  return Response.json(errorBody(normalized, procedure), {
    status: normalized.status,
    ...(retryAfter !== undefined && { headers: { 'retry-after': String(retryAfter) } }),
  });
}

/**
 * Resolves the caller (invalid credentials answer here), runs `handle` with the request's
 * context, and releases its after-commit work only when the answer is a success.
 */
export function scoped(deps: RequestScopeDeps) {
  return async function withScope(
    c: AppContext,
    handle: (context: RequestContext) => Promise<Response>,
  ): Promise<Response> {
    let scope;
    try {
      scope = await createRequestScope(deps, c.req.raw, c.var.requestId, c.var.logger);
      c.set('principal', scope.context.principal);
    } catch (error) {
      return fail(c, error);
    }
    const response = await handle(scope.context);
    if (response.status < 400) scope.committed();
    return response;
  };
}

export type WithScope = ReturnType<typeof scoped>;
