import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { DatabaseHandle, PluginMigrations } from './database.ts';
import { journalTableFor } from './database.ts';
import { lockDataFolder } from './data-folder-lock.ts';
import {
  diskFullFailuresSoFar,
  diskFullOrSame,
  diskFullReason,
  refuseFullDisk,
} from './disk-full.ts';
import { withInfrastructure } from './infrastructure/migrations.ts';
import { ReconnectingListener } from './listener.ts';
import { createPoolTracker } from './pool-stats.ts';

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
  const failuresBefore = diskFullFailuresSoFar();
  const client = postgres(url, {
    max: settings.poolSize ?? 10,
    onnotice: () => {},
    connect_timeout: (settings.connectTimeoutMs ?? 5_000) / 1_000,
    backoff: reconnectDelaySeconds,
    connection: { statement_timeout: settings.statementTimeoutMs ?? 30_000 },
  });
  const pool = trackPostgresPool(client, settings.poolSize ?? 10);
  const db = drizzlePostgres(client);
  let listener: ReconnectingListener | undefined;
  return {
    db,
    kind: 'postgres',
    pool,
    async migrate(plugins) {
      for (const plugin of withInfrastructure(plugins))
        await migratePostgres(db, migrationConfig(plugin));
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    diskFull: () => diskFullReason(undefined, failuresBefore),
    listen(channel, onPayload, onReset) {
      listener ??= new ReconnectingListener(url, settings);
      return listener.listen(channel, onPayload, onReset);
    },
    async close() {
      // Called once requests and workers are drained: nothing is left to finish, and a graceful
      // end would wait out connections that died in an earlier outage.
      await listener?.close();
      await client.end({ timeout: 0 });
    },
  };
}

/**
 * PGlite in `dataDir` (or in memory for `memory://...`). A folder is locked for this process
 * first: a second process on the same folder is refused with `DataFolderLockedError`.
 * `loadDataDir` starts from a data directory saved with `dumpDataDir` instead of an empty one.
 */
export async function openPglite(
  dataDir: string,
  options: { loadDataDir?: Blob } = {},
): Promise<DatabaseHandle> {
  const failuresBefore = diskFullFailuresSoFar();
  const inMemory = dataDir.startsWith('memory://');
  const folder = inMemory ? undefined : resolve(dataDir, 'pglite');
  let lock;
  try {
    // Started on a full disk the engine aborts, or starts and cannot write: refuse instead.
    if (folder) await refuseFullDisk(folder);
    lock = inMemory ? undefined : lockDataFolder(dataDir);
  } catch (error) {
    throw await diskFullOrSame(dataDir, error);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(folder ?? dataDir, {
      ...(options.loadDataDir && { loadDataDir: options.loadDataDir }),
    });
  } catch (error) {
    lock?.release();
    throw await diskFullOrSame(folder ?? dataDir, error);
  }
  const pool = trackPglitePool(client);
  const db = drizzlePglite(client);
  const handle: DatabaseHandle = {
    db,
    kind: 'pglite',
    pool,
    async migrate(plugins) {
      for (const plugin of withInfrastructure(plugins))
        await migratePglite(db, migrationConfig(plugin));
    },
    async ping() {
      await client.query('select 1');
    },
    diskFull: () => diskFullReason(folder, failuresBefore),
    listen: (channel, onPayload) => client.listen(channel, onPayload),
    async close() {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
  pgliteClients.set(handle, client);
  return handle;
}

const pgliteClients = new WeakMap<DatabaseHandle, PGlite>();

/** The data directory of a PGlite handle as an uncompressed tar, for `openPglite`'s `loadDataDir`. */
export async function dumpPgliteDataDir(handle: DatabaseHandle): Promise<Blob> {
  const client = pgliteClients.get(handle);
  if (!client) throw new Error('Not a PGlite database handle');
  return client.dumpDataDir('none');
}

type Begin = (...args: unknown[]) => Promise<unknown>;

/** Wraps the entry points drizzle sends through (`unsafe`, `begin`) to count what is in flight. */
function trackPostgresPool(client: postgres.Sql, size: number) {
  const tracker = createPoolTracker(size);
  const unsafe = client.unsafe.bind(client);
  const begin = client.begin.bind(client) as Begin;
  client.unsafe = ((...args: Parameters<typeof unsafe>) =>
    tracker.statement(unsafe(...args))) as typeof client.unsafe;
  client.begin = ((...args: unknown[]) =>
    tracker.transaction((run) => {
      const callback = args.pop() as (sql: unknown) => unknown;
      return begin(...args, (sql: unknown) => run(() => callback(sql)));
    })) as typeof client.begin;
  return tracker.stats;
}

/** The same for PGlite's `query` and `transaction`; its one session serialises them. */
function trackPglitePool(client: PGlite) {
  const tracker = createPoolTracker(1);
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client) as Begin;
  client.query = ((...args: Parameters<typeof query>) =>
    tracker.statement(query(...args))) as typeof client.query;
  client.transaction = ((callback: (tx: unknown) => unknown) =>
    tracker.transaction((run) =>
      transaction((tx: unknown) => run(() => callback(tx))),
    )) as typeof client.transaction;
  return tracker.stats;
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
