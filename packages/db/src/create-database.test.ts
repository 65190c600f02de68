import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, redactUrl } from './create-database.ts';
import { isUniqueViolation } from './errors.ts';
import { queryRows } from './rows.ts';
import { createTestDatabase } from './testing.ts';

const demo = {
  pluginId: 'demo',
  folder: new URL('../test/fixtures/demo', import.meta.url).pathname,
};
const scratch = mkdtempSync(join(tmpdir(), 'checkline-db-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('createDatabase', () => {
  it('opens PGlite in DATA_DIR when no URL is given, says so, and keeps data across opens', async () => {
    const logged: string[] = [];
    const dataDir = join(scratch, 'data');
    const first = await createDatabase({ dataDir, log: (m) => void logged.push(m) });
    expect(first.kind).toBe('pglite');
    expect(logged).toEqual([`database: embedded PGlite in ${dataDir}`]);
    expect(existsSync(join(dataDir, 'pglite'))).toBe(true);
    await first.migrate([demo]);
    await first.db.execute(sql`insert into demo.things (name) values ('kept')`);
    await first.close();

    const second = await createDatabase({ dataDir });
    const rows = await queryRows<{ name: string }>(second.db, sql`select name from demo.things`);
    expect(rows).toEqual([{ name: 'kept' }]);
    await second.close();
  });

  it('redacts the password of a logged URL', () => {
    expect(redactUrl('postgres://app:hunter2@db:5432/checkline')).toBe(
      'postgres://app:***@db:5432/checkline',
    );
    expect(redactUrl('not a url')).not.toContain('not a url');
  });
});

describe('migrations', () => {
  it('apply the platform’s own tables first, then once per plugin, each in its own journal table', async () => {
    const handle = await createTestDatabase([demo]);
    try {
      await handle.migrate([demo]);
      const journals = await queryRows<{ table_name: string }>(
        handle.db,
        sql`select table_name from information_schema.tables where table_schema = 'drizzle' order by 1`,
      );
      expect(journals).toEqual([
        { table_name: '__drizzle_migrations_checkline' },
        { table_name: '__drizzle_migrations_demo' },
      ]);
      const outbox = await queryRows<{ count: number }>(
        handle.db,
        sql`select count(*)::int as count from checkline.event_outbox`,
      );
      expect(outbox).toEqual([{ count: 0 }]);
      const applied = await queryRows<{ count: number }>(
        handle.db,
        sql`select count(*)::int as count from drizzle.__drizzle_migrations_demo`,
      );
      expect(applied).toEqual([{ count: 1 }]);
      await handle.db.execute(sql`create unique index on demo.things (name)`);
      await handle.db.execute(sql`insert into demo.things (name) values ('a')`);
      const duplicate = await handle.db
        .execute(sql`insert into demo.things (name) values ('a')`)
        .catch((error: unknown) => error);
      expect(isUniqueViolation(duplicate)).toBe(true);
      expect(isUniqueViolation(new Error('other'))).toBe(false);
    } finally {
      await handle.close();
    }
  });

  it('refuse a plugin whose journal would be the platform’s own', async () => {
    const handle = await createTestDatabase();
    try {
      await expect(handle.migrate([{ ...demo, pluginId: 'checkline' }])).rejects.toThrow(
        /platform's own/,
      );
    } finally {
      await handle.close();
    }
  });
});
