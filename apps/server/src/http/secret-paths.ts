import type { AnyPlugin } from '@checkline/core';
import { mountedRoutes } from '@checkline/core';

/** A path prefix under which the next segment is a credential, and that credential's name. */
export interface SecretPathPrefix {
  /** Lower case, single slashes, ending in `/` (`/api/healthcheck/heartbeat/`). */
  prefix: string;
  param: string;
}

/**
 * The prefixes of every plugin route whose path holds a secret parameter: the route's pattern up
 * to that parameter (`/api/healthcheck/heartbeat/:token` gives `/api/healthcheck/heartbeat/`).
 */
export function secretPathPrefixes(plugins: readonly AnyPlugin[]): SecretPathPrefix[] {
  const found = new Map<string, SecretPathPrefix>();
  for (const route of mountedRoutes(plugins)) {
    const secrets = route.secretParams ?? [];
    const segments = route.path.split('/');
    const at = segments.findIndex((segment) => secrets.includes(segment.replace(/^:/, '')));
    if (at < 0) continue;
    const prefix = normalizePath(`${segments.slice(0, at).join('/')}/`);
    found.set(prefix, { prefix, param: segments[at]!.replace(/^:/, '') });
  }
  return [...found.values()];
}

/**
 * `path` as the log may show it. The same path can be spelled many ways that routing treats
 * differently (and that answer 404 rather than reach the route): repeated slashes, percent-encoded
 * slashes or letters, another case, a token holding `/`. So the comparison is made on one
 * normalised spelling, and everything after a secret prefix is replaced by `:param` whatever the
 * method or the route's answer.
 */
export function redactSecretPath(path: string, prefixes: readonly SecretPathPrefix[]): string {
  const lower = normalizePath(path).toLowerCase();
  for (const { prefix, param } of prefixes) {
    if (lower.startsWith(prefix)) return `${prefix}:${param}`;
  }
  return path;
}

/** Percent-decoding, bounded: a double-encoded prefix (`%2561`) is still recognised. */
const MAX_DECODE_ROUNDS = 3;

/** Decoded (repeatedly, up to a bound), backslashes as slashes, runs of slashes collapsed, dot segments resolved. */
function normalizePath(path: string): string {
  let decoded = path;
  for (let round = 0; round < MAX_DECODE_ROUNDS && decoded.includes('%'); round++) {
    const next = decodePercent(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  const segments: string[] = [];
  for (const segment of decoded.replaceAll('\\', '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const trailing = /[/\\]$/.test(decoded) && segments.length > 0 ? '/' : '';
  return `/${segments.join('/')}${trailing}`;
}

/** Decodes every well-formed `%XX` and leaves malformed ones as they are (never throws). */
function decodePercent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%[0-9A-Fa-f]{2}/g, (escape) => {
      try {
        return decodeURIComponent(escape);
      } catch {
        return escape;
      }
    });
  }
}
