import { REPLAYED_HEADER, type AppErrorData, type RequestContext } from '@checkline/core';
import type { AppContext } from './env.ts';
import { wantsOrpcEnvelope } from './error-envelope.ts';
import { errorBody, normalizeError } from './errors.ts';
import type { RequestScopeDeps } from './request-context.ts';
import { createRequestScope } from './request-context.ts';

/**
 * The error answer for anything thrown, with `Retry-After` when the error carries one: the error
 * object, or oRPC's envelope when the request is headed for the oRPC surface.
 */
export function fail(c: AppContext, error: unknown, procedure?: string): Response {
  const normalized = normalizeError(error, c.var.logger, c.var.requestId);
  const retryAfter = (normalized.data as AppErrorData | undefined)?.retryAfter;
  const init = {
    status: normalized.status,
    ...(retryAfter !== undefined && { headers: { 'retry-after': String(retryAfter) } }),
  };
  if (wantsOrpcEnvelope(c)) return Response.json({ json: normalized.toJSON() }, init);
  return Response.json(errorBody(normalized, procedure), init);
}

/** A success answered from the first attempt of its Idempotency-Key says so. */
function markedReplayed(response: Response): Response {
  if (response.status >= 400) return response;
  const headers = new Headers(response.headers);
  headers.set(REPLAYED_HEADER, 'true');
  return new Response(response.body, { status: response.status, headers });
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
    return scope.context.idempotency?.replayed ? markedReplayed(response) : response;
  };
}

export type WithScope = ReturnType<typeof scoped>;
