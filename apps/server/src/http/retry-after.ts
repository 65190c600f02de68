import type { AppErrorData, RequestContext } from '@checkline/core';

// oRPC's handlers write an error's body but not its headers: the `retryAfter` of a refusal is kept
// here, per request, by the error interceptor, and put on the response by the surface.
const retryAfterOfRequest = new WeakMap<RequestContext, number>();

/** Notes the `retryAfter` (seconds) an error carries, for {@link withRetryAfter}. */
export function noteRetryAfter(context: RequestContext, error: { data?: unknown }) {
  const retryAfter = (error.data as AppErrorData | undefined)?.retryAfter;
  if (retryAfter !== undefined) retryAfterOfRequest.set(context, retryAfter);
}

/** `response` with `Retry-After` when the request's error asked for one. */
export function withRetryAfter(response: Response, context: RequestContext): Response {
  const retryAfter = retryAfterOfRequest.get(context);
  if (retryAfter === undefined || response.status < 400 || response.headers.has('retry-after')) {
    return response;
  }
  const headers = new Headers(response.headers);
  headers.set('retry-after', String(retryAfter));
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
