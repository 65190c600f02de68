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
import { lockDataFolder } from './data-folder-lock.ts';
import { withInfrastructure } from './infrastructure/migrations.ts';

export interface CreateDatabaseOptions {
  /** `postgres://...`; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** Where PGlite keeps its files; `memory://` keeps nothing. Default `./data`. */
  dataDir?: string | undefined;
  /** Size of the postgres-js connection pool. Default 10. */
  poolSize?: number;
  /** Longest wait for a new PostgreSQL connection, in milliseconds. Default 5 000. */
  connectTimeoutMs?: number;
  /** PostgreSQL's `statement_timeout` for every connection, in milliseconds. Default 30 000. */
  statementTimeoutMs?: number;
  log?: (message: string) => void;
}

function migrationConfig(plugin: PluginMigrations) {
  return {
    migrationsFolder: plugin.folder,
    migrationsTable: journalTableFor(plugin.pluginId),
    migrationsSchema: 'drizzle',
  };
}

/** How long a connection waits before reconnecting after a failure: 50 ms doubling, at most half a second. */
function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 0.5);
}

export interface PostgresSettings {
  poolSize?: number | undefined;
  connectTimeoutMs?: number | undefined;
  statementTimeoutMs?: number | undefined;
}

/**
 * A postgres-js pool that fails fast while the server is away: connecting is bounded, statements
 * are bounded on the server, and reconnecting waits at most half a second (the driver's own back-off
 * grows to 20 s, holding every request that long after the server is back).
 */
export function connectPostgres(url: string, settings: PostgresSettings = {}): DatabaseHandle {
  const client = postgres(url, {
    max: settings.poolSize ?? 10,
    onnotice: () => {},
    connect_timeout: (settings.connectTimeoutMs ?? 5_000) / 1_000,
    backoff: reconnectDelaySeconds,
    connection: { statement_timeout: settings.statementTimeoutMs ?? 30_000 },
  });
  const db = drizzlePostgres(client);
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    async migrate(plugins) {
      for (const plugin of withInfrastructure(plugins))
        await migratePostgres(db, migrationConfig(plugin));
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async listen(channel, onPayload) {
      const { unlisten } = await client.listen(channel, onPayload);
      return unlisten;
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}

/**
 * PGlite in `dataDir` (or in memory for `memory://...`). A folder is locked for this process
 * first: a second process on the same folder is refused with `DataFolderLockedError`.
 */
export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const inMemory = dataDir.startsWith('memory://');
  const lock = inMemory ? undefined : lockDataFolder(dataDir);
  let client: PGlite;
  try {
    client = await PGlite.create(inMemory ? dataDir : resolve(dataDir, 'pglite'));
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite(client);
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    async migrate(plugins) {
      for (const plugin of withInfrastructure(plugins))
        await migratePglite(db, migrationConfig(plugin));
    },
    async ping() {
      await client.query('select 1');
    },
    listen: (channel, onPayload) => client.listen(channel, onPayload),
    async close() {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/** PostgreSQL through postgres-js when a URL is given, the embedded PGlite otherwise. */
export async function createDatabase(options: CreateDatabaseOptions = {}): Promise<DatabaseHandle> {
  const log = options.log ?? (() => {});
  if (options.url) {
    const handle = connectPostgres(options.url, options);
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
