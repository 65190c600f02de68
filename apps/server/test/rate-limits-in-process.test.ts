import { connectPostgres } from '@checkline/db';
import type { TestPostgres } from '@checkline/db/testing';
import { createTestPostgres } from '@checkline/db/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './support/test-server.ts';
import { createTestServer, testEnv } from './support/test-server.ts';

/*
 * Two servers on one PostgreSQL database, as two processes would be. By default a key's budget is
 * counted in the database, so the two together allow it once; `rateLimitsInProcess` (the bench's
 * baseline for what sharing costs) counts it in each process, so they allow it twice.
 */
const BUDGET = 3;
const CALLS = 4 * BUDGET;

describe.each([
  { rateLimitsInProcess: false, counted: 'in the database, shared by both' },
  { rateLimitsInProcess: true, counted: 'in each process' },
])('per-key budget counted $counted', ({ rateLimitsInProcess }) => {
  let database: TestPostgres;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    database = await createTestPostgres();
    const auth = {
      rateLimitsInProcess,
      rateLimits: { callsPerKey: { points: BUDGET, durationSeconds: 60 } },
    };
    a = await createTestServer({ auth, database: connectPostgres(database.url, { poolSize: 3 }) });
    b = await createTestServer({ auth, database: connectPostgres(database.url, { poolSize: 3 }) });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  it('allows the budget once between two processes when shared, once in each when not', async () => {
    const { cookie } = await a.adminSession();
    const created = await a.request('/api/auth/', {
      method: 'POST',
      headers: { cookie, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
      body: JSON.stringify({ createApplication: { name: 'budgeted' } }),
    });
    const { secret } = ((await created.json()) as { createApplication: { secret: string } })
      .createApplication;
    const statuses: number[] = [];
    for (let index = 0; index < CALLS; index++) {
      const server = index % 2 === 0 ? a : b;
      const response = await server.request('/rest/auth/getMe', {
        headers: { authorization: `Bearer ${secret}` },
      });
      await response.body?.cancel();
      statuses.push(response.status);
    }
    const allowed = statuses.filter((status) => status !== 429).length;
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    const [stored] = await sql<{ rows: number }[]>`
      select count(*)::int as rows from checkline.rate_limits where key like 'auth-key:%'`;
    await sql.end();
    if (rateLimitsInProcess) {
      expect(allowed).toBe(2 * BUDGET);
      expect(stored!.rows).toBe(0);
    } else {
      expect(allowed).toBeGreaterThan(0);
      expect(allowed).toBeLessThanOrEqual(BUDGET);
      expect(stored!.rows).toBe(1);
    }
  });
});
