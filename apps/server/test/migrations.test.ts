import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseHandle, PluginMigrations } from '@checkline/db';
import { infrastructureMigrations, journalTableFor, queryRows } from '@checkline/db';
import { createEmptyTestDatabase, createTestDatabase } from '@checkline/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { migrateAll, migrationsOf } from '../src/start.ts';
import { testEnv } from './support/test-server.ts';

const plugins = createPlugins(testEnv);
const migrations = [infrastructureMigrations, ...migrationsOf(plugins)];

function journalLength(plugin: PluginMigrations): number {
  const journal = JSON.parse(
    readFileSync(join(plugin.folder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: unknown[] };
  return journal.entries.length;
}

async function appliedCount(database: DatabaseHandle, plugin: PluginMigrations) {
  const [row] = await queryRows<{ count: number }>(
    database.db,
    sql.raw(`select count(*)::int as count from drizzle.${journalTableFor(plugin.pluginId)}`),
  );
  return row!.count;
}

async function columnsOf(database: DatabaseHandle) {
  return queryRows<Record<string, unknown>>(
    database.db,
    sql`select table_schema, table_name, column_name, data_type, is_nullable, column_default
        from information_schema.columns
        where table_schema not in ('pg_catalog', 'information_schema')
        order by table_schema, table_name, column_name`,
  );
}

describe('migrations from an empty database', () => {
  let empty: DatabaseHandle;
  let fromTemplate: DatabaseHandle;
  beforeAll(async () => {
    empty = await createEmptyTestDatabase();
    fromTemplate = await createTestDatabase(migrationsOf(plugins));
  });
  afterAll(async () => {
    await empty.close();
    await fromTemplate.close();
  });

  it('starts with no tables of ours', async () => {
    expect(await columnsOf(empty)).toEqual([]);
  });

  it('applies every migration of the platform and of each plugin, in order', async () => {
    await migrateAll(empty, plugins);
    for (const plugin of migrations) {
      expect({ plugin: plugin.pluginId, applied: await appliedCount(empty, plugin) }).toEqual({
        plugin: plugin.pluginId,
        applied: journalLength(plugin),
      });
    }
  });

  it('applies nothing the second time', async () => {
    await migrateAll(empty, plugins);
    for (const plugin of migrations) {
      expect(await appliedCount(empty, plugin)).toBe(journalLength(plugin));
    }
  });

  it('leaves the same tables and columns as the test template every test database copies', async () => {
    const migrated = await columnsOf(empty);
    expect(migrated.length).toBeGreaterThan(0);
    expect(await columnsOf(fromTemplate)).toEqual(migrated);
  });
});
