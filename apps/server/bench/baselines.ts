import { catalogService } from '@checkline/catalog';
import type { Database } from '@checkline/db';
import { OpenAPIHandler } from '@orpc/openapi/fetch';
import { os } from '@orpc/server';
import type { AnyRouter } from '@orpc/server';
import { RPCHandler } from '@orpc/server/fetch';
import type { Hono } from 'hono';
import { z } from 'zod';
import { memoryRouter, memorySystem } from './memory-plugin.ts';

/**
 * Baselines served by the same process on the same port, registered before any of the app's
 * middleware so they pay for nothing but themselves:
 * (a) GET /bench/bare: a bare Hono route answering a system-sized JSON;
 * (b) GET /bench/orpc-read?id=: an unauthenticated oRPC OpenAPIHandler route doing the catalog's
 *     own prepared primary-key read;
 * (c) POST /bench/rpc/{procedure}: oRPC's own RPCHandler on the in-memory plugin's procedures.
 */
export function mountBaselines(app: Hono, db: Database) {
  app.get('/bench/bare', (c) => c.json(memorySystem));

  const read = os
    .route({ method: 'GET', path: '/bench/orpc-read' })
    .input(z.object({ id: z.uuid() }))
    .handler(({ input }) => catalogService.getSystem(db, input.id));
  const openApi = new OpenAPIHandler({ read });
  app.get('/bench/orpc-read', async (c) => {
    const { matched, response } = await openApi.handle(c.req.raw, { context: {} });
    return matched ? response : c.notFound();
  });

  // The in-memory handlers read no context, so this baseline passes none.
  const rpc = new RPCHandler(memoryRouter as AnyRouter);
  app.post('/bench/rpc/*', async (c) => {
    const { matched, response } = await rpc.handle(c.req.raw, {
      prefix: '/bench/rpc',
      context: {},
    });
    return matched ? response : c.notFound();
  });
}
