import type { DatabaseHandle } from '@checkline/db';
import type { Hono } from 'hono';
import type { AppEnv } from './env.ts';
import { errorResponse } from './errors.ts';

/**
 * `/healthz`: the process is up. `/readyz`: the database answers within 2 s and has room to
 * write, else 503 with the reason as its message.
 */
export function mountHealthRoutes(app: Hono<AppEnv>, database: DatabaseHandle) {
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await withTimeout(database.ping(), 2_000);
    } catch (error) {
      c.var.logger.warn({ err: error }, 'readiness check failed');
      return errorResponse('SERVICE_UNAVAILABLE', 'Database unreachable', c.var.requestId);
    }
    // Reading still works on a full disk; writing does not, so the server is not ready.
    const diskFull = await database.diskFull();
    if (diskFull) {
      c.var.logger.warn({ reason: diskFull }, 'readiness check failed');
      return errorResponse('SERVICE_UNAVAILABLE', diskFull, c.var.requestId);
    }
    return c.json({ status: 'ready', database: database.kind });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
