import { orderPlugins, silentLogger } from '@checkline/core';
import { queryRows, type DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { startCheckline } from '../src/start.ts';
import { testEnv } from './support/test-server.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const mounted = createPlugins(testEnv);
const idsOf = (plugins: readonly { id: string }[]) => plugins.map((plugin) => plugin.id);

interface Count {
  n: number;
}

async function tableCount() {
  const [row] = await queryRows<Count>(
    database.db,
    sql`select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
  );
  return row?.n;
}
describe('plugin dependencies at start-up', () => {
  it('every plugin the server mounts starts after each plugin it depends on', () => {
    const order = idsOf(orderPlugins(mounted));
    for (const plugin of mounted) {
      for (const dependency of plugin.dependsOn ?? []) {
        expect(order.indexOf(dependency), `${plugin.id} after ${dependency}`).toBeLessThan(
          order.indexOf(plugin.id),
        );
      }
    }
    expect(order).toHaveLength(mounted.length);
  });

  it('channels and monitoring plugins declare what they call', () => {
    const declared = Object.fromEntries(mounted.map((plugin) => [plugin.id, plugin.dependsOn]));
    expect(declared.healthcheck).toEqual(['catalog', 'maintenance']);
    expect(declared.incident).toEqual(['catalog']);
    expect(declared['notification-slack']).toEqual(['notification']);
  });

  it.each(['maintenance', 'notification', 'catalog'])(
    'a server without %s fails to start, naming the plugin that needs it, before migrating',
    async (left) => {
      const plugins = mounted.filter((plugin) => plugin.id !== left);
      const needing = plugins.find((plugin) => plugin.dependsOn?.includes(left))!;
      const before = await tableCount();
      await expect(startCheckline({ plugins, database, logger: silentLogger })).rejects.toThrow(
        `Plugin ${needing.id} depends on ${left}, which is not mounted`,
      );
      expect(await tableCount()).toBe(before);
    },
  );
});
