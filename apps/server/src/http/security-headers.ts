import type { MiddlewareHandler } from 'hono';

/**
 * The API answers JSON only: nothing in it may load, run, frame or submit anything. Pages served
 * by the app (an interactive API reference, the web UI) bring their own policy (see below).
 */
export const apiContentSecurityPolicy =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A route (every path under `pathPrefix`) that serves a page and needs a looser policy. */
export interface RouteContentSecurityPolicy {
  pathPrefix: string;
  /** Directives such as `default-src 'self'; img-src 'self' data:`; `frame-ancestors 'none'` is added. */
  policy: string;
}

const sharedHeaders: readonly (readonly [string, string])[] = [
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'no-referrer'],
  ['x-frame-options', 'DENY'],
  // Without includeSubDomains: the API may share its domain with services still on plain HTTP.
  ['strict-transport-security', 'max-age=15552000'],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
];

/**
 * `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY`, a
 * strict Content-Security-Policy with `frame-ancestors 'none'`, HSTS and the cross-origin
 * isolation headers, on every response including errors. `pages` relax the policy for the routes
 * that serve HTML; every other header stays the same there. (Hono's `secureHeaders` sets a dozen
 * headers, several only for retired browsers; this sets the ones that matter, from constants.)
 */
export function securityHeaders(
  pages: readonly RouteContentSecurityPolicy[] = [],
): MiddlewareHandler {
  const pagePolicies = pages.map(
    (page) => [page.pathPrefix, `${page.policy}; frame-ancestors 'none'`] as const,
  );
  return async function securityHeaders(c, next) {
    await next();
    const headers = c.res.headers;
    for (const [name, value] of sharedHeaders) headers.set(name, value);
    let policy = apiContentSecurityPolicy;
    for (const [pathPrefix, pagePolicy] of pagePolicies) {
      if (c.req.path.startsWith(pathPrefix)) policy = pagePolicy;
    }
    headers.set('content-security-policy', policy);
  };
}
