import { isIP } from 'node:net';
import type { AnyPlugin, HostClaim } from '@checkline/core';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import { errorResponse } from './errors.ts';

/** The host name of a URL, or of a `Host` header (lowercase, without port); undefined if malformed. */
function hostNameOf(value: string): string | undefined {
  try {
    const { hostname } = new URL(value.includes('://') ? value : `http://${value}`);
    return hostname.replace(/^\[|\]$/g, '').toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Hosts that are always the server's own: its configured addresses, loopback, bare IP addresses
 * (health probes, direct access) and single-label names (container and service names).
 */
function isOwnHost(host: string, own: ReadonlySet<string>): boolean {
  return own.has(host) || host === 'localhost' || isIP(host) !== 0 || !host.includes('.');
}

/** The UI's files: its hashed assets and the files at the top of its build (favicon, manifest). */
const isUiFile = (path: string) =>
  path.startsWith('/assets/') || /^\/[^/]+\.[a-z0-9]+$/i.test(path);

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * Serves plugins' custom domains (`claimHost`): on a claimed host, `/` redirects to the claim's
 * home (a path on that same host, never another host: no open redirect), the claim's paths and
 * the UI's files are served as on the server's own host, and everything else (the admin UI, the
 * API) answers 404. A host neither ours nor claimed answers 404 too. The Host header decides
 * only this; links the server makes use its configured addresses.
 */
export function customDomains(
  plugins: readonly AnyPlugin[],
  ownAddresses: readonly string[],
): MiddlewareHandler<AppEnv> {
  const claimers = plugins.filter((plugin) => plugin.claimHost !== undefined);
  const own = new Set(ownAddresses.flatMap((address) => hostNameOf(address) ?? []));
  return async function customDomain(c, next) {
    const host = hostNameOf(c.req.header('host') ?? new URL(c.req.url).host);
    if (host !== undefined && isOwnHost(host, own)) return next();
    let claim: HostClaim | undefined;
    for (const plugin of claimers) {
      claim = host === undefined ? undefined : await plugin.claimHost!(host);
      if (claim) break;
    }
    const notServed = () =>
      errorResponse('NOT_FOUND', 'Nothing is served at this host and path', c.var.requestId, {
        headers: { 'cache-control': 'no-store' },
      });
    if (!claim) return notServed();
    const path = c.req.path;
    if (path === '/' && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
      return c.body(null, 302, { location: claim.home, 'cache-control': 'no-store' });
    }
    if (claim.paths.some((prefix) => under(path, prefix)) || isUiFile(path)) return next();
    return notServed();
  };
}
