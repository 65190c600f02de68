import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PoolStats } from './pool-stats.ts';

/** What every plugin service receives: a drizzle database or a transaction of one. */
export type Database = PgDatabase<PgQueryResultHKT, Record<string, never>>;

export type DatabaseKind = 'postgres' | 'pglite';

/** One plugin's migrations: its SQL folder and its own journal table. */
export interface PluginMigrations {
  pluginId: string;
  folder: string;
}

/**
 * LISTENs on `channel` (a plain lowercase identifier) and calls `onPayload` with each NOTIFY's
 * payload; resolves once listening, with the function that stops. `onReset` runs when
 * notifications may have been missed: as soon as the listening connection is lost, and again once
 * it listens anew (never on PGlite, whose single session cannot be lost).
 */
export type DatabaseListen = (
  channel: string,
  onPayload: (payload: string) => void,
  onReset?: () => void,
) => Promise<() => Promise<void>>;

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** What the connections are doing now, and the waits so far (for `GET /metrics`). */
  pool?(): PoolStats;
  /** Applies the platform's own pending migrations, then each plugin's, in the order given. */
  migrate(plugins: readonly PluginMigrations[]): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Why the database cannot write for want of disk space (the embedded one's folder is out of
   * room, or a write failed so a moment ago), or undefined.
   */
  diskFull(): Promise<string | undefined>;
  /** PostgreSQL: a connection of its own that listens again after a loss; PGlite: its single session. */
  listen: DatabaseListen;
  close(): Promise<void>;
}

export function journalTableFor(pluginId: string): string {
  return `__drizzle_migrations_${pluginId.replaceAll('-', '_')}`;
}
