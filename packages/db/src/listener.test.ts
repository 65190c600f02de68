import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from './create-database.ts';
import type { DatabaseHandle } from './database.ts';
import type { TestPostgres } from './testing.ts';
import { createTestPostgres } from './testing.ts';

let server: TestPostgres;
let database: DatabaseHandle;
let admin: postgres.Sql;

beforeAll(async () => {
  server = await createTestPostgres();
  database = connectPostgres(server.url, { poolSize: 2 });
  admin = postgres(server.url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await admin?.end({ timeout: 0 });
  await database?.close();
  await server?.drop();
});

/** Resolves once `done()` holds, or rejects after five seconds. */
async function eventually(done: () => boolean, what: string) {
  const deadline = Date.now() + 5_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the PostgreSQL listener', () => {
  it('resets its subscribers when its connection is lost, and hears again once it listens anew', async () => {
    const heard: string[] = [];
    let resets = 0;
    const stop = await database.listen(
      'listener_test',
      (payload) => void heard.push(payload),
      () => void resets++,
    );
    await admin`select pg_notify('listener_test', 'before')`;
    await eventually(() => heard.length === 1, 'the first notify');
    expect(resets).toBe(0);

    const terminated = await admin<{ pid: number }[]>`
      select pg_terminate_backend(pid) as ok, pid from pg_stat_activity
      where datname = current_database() and query ilike 'listen %'`;
    expect(terminated).toHaveLength(1);
    // One reset when the loss is seen, one when listening again.
    await eventually(() => resets >= 2, 'two resets');

    await admin`select pg_notify('listener_test', 'after')`;
    await eventually(() => heard.length === 2, 'the notify after the loss');
    expect(heard).toEqual(['before', 'after']);
    await stop();
  });
});
