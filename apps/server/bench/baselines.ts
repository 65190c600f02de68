import { catalogService } from '@checkline/catalog';
import type { Database } from '@checkline/db';
import { OpenAPIHandler } from '@orpc/openapi/fetch';
import { os } from '@orpc/server';
import type { Hono } from 'hono';
import { z } from 'zod';

/** The shape and size of a catalog system as the API answers it. */
const sampleSystem = {
  id: '6f1c2b9e-3a4d-4e5f-8a7b-9c0d1e2f3a4b',
  name: 'bench-system',
  description: 'the system every benchmark reads',
  owner: 'bench',
  metadata: { tier: 1 },
  tags: ['bench'],
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt: '2026-11-20T00:00:00.000Z',
};

/**
 * Baselines served by the same process on the same port, registered before any of the app's
 * middleware so they pay for nothing but themselves:
 * (a) GET /bench/bare: a bare Hono route answering a system-sized JSON;
 * (b) GET /bench/orpc-read?id=: an unauthenticated oRPC OpenAPIHandler route doing the catalog's
 *     own prepared primary-key read.
 */
export function mountBaselines(app: Hono, db: Database) {
  app.get('/bench/bare', (c) => c.json(sampleSystem));

  const read = os
    .route({ method: 'GET', path: '/bench/orpc-read' })
    .input(z.object({ id: z.uuid() }))
    .handler(({ input }) => catalogService.getSystem(db, input.id));
  const handler = new OpenAPIHandler({ read });
  app.get('/bench/orpc-read', async (c) => {
    const { matched, response } = await handler.handle(c.req.raw, { context: {} });
    return matched ? response : c.notFound();
  });
}
