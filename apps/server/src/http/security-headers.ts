import type { MiddlewareHandler } from 'hono';

/**
 * The API answers JSON only: nothing in it may load, run, frame or submit anything. Pages served
 * by the app (an interactive API reference, the web UI) bring their own policy (see below).
 */
const apiContentSecurityPolicy =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A route (every path under `pathPrefix`) that serves a page and needs a looser policy. */
export interface RouteContentSecurityPolicy {
  pathPrefix: string;
  /** Directives such as `default-src 'self'; img-src 'self' data:`; `frame-ancestors 'none'` is added. */
  policy: string;
  /** Paths under `pathPrefix` that keep the API's policy (a page served at `/` leaves `/api` alone). */
  exceptPrefixes?: readonly string[];
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
    (page) =>
      [
        page.pathPrefix,
        page.exceptPrefixes ?? [],
        `${page.policy}; frame-ancestors 'none'`,
      ] as const,
  );
  const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  return async function securityHeaders(c, next) {
    await next();
    const headers = c.res.headers;
    for (const [name, value] of sharedHeaders) headers.set(name, value);
    let policy = apiContentSecurityPolicy;
    const path = c.req.path;
    for (const [pathPrefix, exceptPrefixes, pagePolicy] of pagePolicies) {
      const excepted = exceptPrefixes.some((prefix) => under(path, prefix));
      if (path.startsWith(pathPrefix) && !excepted) policy = pagePolicy;
    }
    headers.set('content-security-policy', policy);
  };
}
