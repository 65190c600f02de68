import type { Logger } from '@checkline/core';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import type { SecretPathPrefix } from './secret-paths.ts';
import { redactSecretPath } from './secret-paths.ts';

/**
 * One info line per request once it is answered: method, path (never the query string, which
 * may carry codes and tokens), status, duration, the caller when it was resolved, request id.
 * The path is redacted before routing, so a credential in it is hidden whichever route (or none)
 * answers.
 */
export function logAccess(
  logger: Logger,
  secretPrefixes: readonly SecretPathPrefix[],
): MiddlewareHandler<AppEnv> {
  return async function logAccess(c, next) {
    const started = performance.now();
    const path = redactSecretPath(c.req.path, secretPrefixes);
    await next();
    const principal = c.var.principal;
    logger.info(
      {
        requestId: c.var.requestId,
        method: c.req.method,
        path,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        ...(principal && { principal: { kind: principal.kind, id: principal.id } }),
      },
      'request',
    );
  };
}
