import type { DatabaseHandle } from '@checkline/db';
import type { Hono } from 'hono';
import { countingDatabase } from '../test/support/statement-counter.ts';

/**
 * The anonymous status-page row: the server's database behind a statement counter, the
 * statements sent while serving `/api/statuspage/public/*` added up (GET /bench/statuspage-
 * statements, POST to reset), and a bare Hono route answering a stored copy of the page's JSON
 * (POST /bench/bare-page to store it): the baseline of the same bytes.
 */
export function statuspageBench(database: DatabaseHandle) {
  const counting = countingDatabase(database);
  const totals = { requests: 0, statements: 0 };
  let pageJson = '{}';
  return {
    handle: counting.handle,
    mount(app: Hono) {
      app.use('/api/statuspage/public/*', async (_c, next) => {
        const { statements } = await counting.statementsDuring(() => next());
        totals.requests += 1;
        totals.statements += statements;
      });
      app.get('/bench/statuspage-statements', (c) => c.json(totals));
      app.post('/bench/statuspage-statements', (c) => {
        totals.requests = 0;
        totals.statements = 0;
        return c.json(totals);
      });
      app.post('/bench/bare-page', async (c) => {
        pageJson = await c.req.text();
        return c.json({ bytes: pageJson.length });
      });
      app.get('/bench/bare-page', (c) =>
        c.body(pageJson, 200, { 'content-type': 'application/json' }),
      );
    },
  };
}

/** Seeds a published page of `systems` systems at /api/statuspage/public/bench; answers its path. */
export async function seedStatusPage(
  keyed: (pluginId: string, body: unknown) => Promise<Record<string, any>>,
  systems = 50,
): Promise<string> {
  const items = [];
  for (let index = 0; index < systems; index++) {
    const { createSystem } = await keyed('catalog', {
      createSystem: { name: `status-bench-${index}` },
    });
    items.push({ kind: 'system', systemId: createSystem.id, displayName: `Service ${index}` });
  }
  const { createPage } = await keyed('statuspage', {
    createPage: { slug: 'bench', title: 'Bench', sections: [{ title: 'All', items }] },
  });
  await keyed('statuspage', { publishPage: { id: createPage.id } });
  return '/api/statuspage/public/bench';
}
