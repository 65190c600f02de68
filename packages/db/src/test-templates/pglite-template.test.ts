import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../database.ts';
import { queryRows } from '../rows.ts';
import { openPgliteFromTemplate } from './pglite-template.ts';

const demo = {
  pluginId: 'demo',
  folder: new URL('../../test/fixtures/demo', import.meta.url).pathname,
};

const thingsIn = async (handle: DatabaseHandle) =>
  queryRows<{ count: number }>(handle.db, sql`select count(*)::int as count from demo.things`);

describe('openPgliteFromTemplate', () => {
  it('opens a copy holding the migrations and no database but postgres', async () => {
    const handle = await openPgliteFromTemplate([demo]);
    try {
      const databases = await queryRows<{ datname: string }>(
        handle.db,
        sql`select datname from pg_database order by 1`,
      );
      expect(databases).toEqual([{ datname: 'postgres' }]);
      expect(await thingsIn(handle)).toEqual([{ count: 0 }]);
    } finally {
      await handle.close();
    }
  });

  it('gives every open its own copy, although a process loads the template once', async () => {
    const first = await openPgliteFromTemplate([demo]);
    const second = await openPgliteFromTemplate([demo]);
    try {
      await first.db.execute(sql`insert into demo.things (name) values ('only in the first')`);
      expect(await thingsIn(second)).toEqual([{ count: 0 }]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
