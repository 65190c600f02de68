import type { Logger } from '@checkline/core';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';

/**
 * One info line per request once it is answered: method, path (never the query string, which
 * may carry codes and tokens), status, duration, the caller when it was resolved, request id.
 */
export function logAccess(logger: Logger): MiddlewareHandler<AppEnv> {
  return async function logAccess(c, next) {
    const started = performance.now();
    await next();
    const principal = c.var.principal;
    logger.info(
      {
        requestId: c.var.requestId,
        method: c.req.method,
        path: c.var.loggedPath ?? c.req.path,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        ...(principal && { principal: { kind: principal.kind, id: principal.id } }),
      },
      'request',
    );
  };
}

/**
 * `path` with the segments that `pattern` (Hono syntax) names by a secret parameter replaced by
 * `:name`, so a credential carried in a path never reaches the log.
 */
export function pathWithoutSecrets(
  pattern: string,
  secretParams: readonly string[],
  path: string,
): string {
  const named = pattern.split('/');
  return path
    .split('/')
    .map((segment, index) => {
      const param = /^:([A-Za-z0-9_]+)/.exec(named[index] ?? '')?.[1];
      return param !== undefined && secretParams.includes(param) ? `:${param}` : segment;
    })
    .join('/');
}
