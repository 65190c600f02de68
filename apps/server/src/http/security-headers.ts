import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

type ContentSecurityPolicyOptions = NonNullable<
  NonNullable<Parameters<typeof secureHeaders>[0]>['contentSecurityPolicy']
>;

/**
 * The API answers JSON only: nothing in it may load, run, frame or submit anything. Pages served
 * by the app (an interactive API reference, the web UI) bring their own policy (see below).
 */
export const apiContentSecurityPolicy: ContentSecurityPolicyOptions = {
  defaultSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
};

/** A route (every path under `pathPrefix`) that serves a page and needs a looser policy. */
export interface RouteContentSecurityPolicy {
  pathPrefix: string;
  policy: ContentSecurityPolicyOptions;
}

const headersWith = (contentSecurityPolicy: ContentSecurityPolicyOptions) =>
  secureHeaders({
    contentSecurityPolicy,
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    // Without includeSubDomains: the API may share its domain with services still on plain HTTP.
    strictTransportSecurity: 'max-age=15552000',
  });

/**
 * `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY`, a
 * strict Content-Security-Policy with `frame-ancestors 'none'` and the rest of Hono's secure
 * headers, on every response including errors. `pages` relax the policy for the routes that serve
 * HTML; every other header stays the same there.
 */
export function securityHeaders(
  pages: readonly RouteContentSecurityPolicy[] = [],
): MiddlewareHandler {
  const forApi = headersWith(apiContentSecurityPolicy);
  const forPages = pages.map((page) => ({
    pathPrefix: page.pathPrefix,
    middleware: headersWith({ ...page.policy, frameAncestors: ["'none'"] }),
  }));
  return async function securityHeaders(c, next) {
    const page = forPages.find((candidate) => c.req.path.startsWith(candidate.pathPrefix));
    return (page?.middleware ?? forApi)(c, next);
  };
}
