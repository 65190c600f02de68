import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';

/**
 * Which envelope an error of this request is answered in. `@orpc/client` reads oRPC's own
 * (`{"json": {"code", "status", "message", "data": {"requestId", ...}}}`); every other caller reads
 * `{code, message, requestId}`. Errors raised before a procedure runs (credentials, Origin, an
 * unknown procedure, a body too large) are answered in the envelope of the route the request
 * was headed for, so an oRPC client gets an `ORPCError` for those too.
 */
const rpcEndpoints = new WeakSet<object>();
const otherEndpoints = new WeakSet<object>();

/** Marks the handler of the oRPC surface's route. */
export function rpcEndpoint<T extends object>(handler: T): T {
  rpcEndpoints.add(handler);
  return handler;
}

/** Marks a handler registered before the oRPC route whose path could also match it. */
export function otherEndpoint<T extends object>(handler: T): T {
  otherEndpoints.add(handler);
  return handler;
}

/** True when the request is headed for the oRPC surface (the first endpoint it matches). */
export function wantsOrpcEnvelope(c: Context): boolean {
  for (const route of matchedRoutes(c)) {
    if (rpcEndpoints.has(route.handler)) return true;
    if (otherEndpoints.has(route.handler)) return false;
  }
  return false;
}
