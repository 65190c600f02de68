import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { Database, DatabaseHandle, PluginMigrations } from './database.ts';
import { journalTableFor } from './database.ts';

export interface CreateDatabaseOptions {
  /** `postgres://...`; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** Where PGlite keeps its files; `memory://` keeps nothing. Default `./data`. */
  dataDir?: string | undefined;
  /** Size of the postgres-js connection pool. Default 10. */
  poolSize?: number;
  log?: (message: string) => void;
}

function migrationConfig(plugin: PluginMigrations) {
  return {
    migrationsFolder: plugin.folder,
    migrationsTable: journalTableFor(plugin.pluginId),
    migrationsSchema: 'drizzle',
  };
}

export function connectPostgres(url: string, poolSize = 10): DatabaseHandle {
  const client = postgres(url, { max: poolSize, onnotice: () => {} });
  const db = drizzlePostgres(client);
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    async migrate(plugins) {
      for (const plugin of plugins) await migratePostgres(db, migrationConfig(plugin));
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}

export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(inMemory ? dataDir : resolve(dataDir, 'pglite'));
  const db = drizzlePglite(client);
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    async migrate(plugins) {
      for (const plugin of plugins) await migratePglite(db, migrationConfig(plugin));
    },
    async ping() {
      await client.query('select 1');
    },
    async close() {
      await client.close();
    },
  };
}

/** PostgreSQL through postgres-js when a URL is given, the embedded PGlite otherwise. */
export async function createDatabase(options: CreateDatabaseOptions = {}): Promise<DatabaseHandle> {
  const log = options.log ?? (() => {});
  if (options.url) {
    const handle = connectPostgres(options.url, options.poolSize);
    log(`database: PostgreSQL at ${redactUrl(options.url)}`);
    return handle;
  }
  const dataDir = options.dataDir ?? './data';
  const handle = await openPglite(dataDir);
  log(`database: embedded PGlite in ${dataDir}`);
  return handle;
}

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable url)';
  }
}
