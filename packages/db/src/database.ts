import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

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
 * payload; resolves once listening, with the function that stops.
 */
export type DatabaseListen = (
  channel: string,
  onPayload: (payload: string) => void,
) => Promise<() => Promise<void>>;

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** Applies the platform's own pending migrations, then each plugin's, in the order given. */
  migrate(plugins: readonly PluginMigrations[]): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** PostgreSQL: a connection of its own that reconnects; PGlite: its single session. */
  listen: DatabaseListen;
  close(): Promise<void>;
}

export function journalTableFor(pluginId: string): string {
  return `__drizzle_migrations_${pluginId.replaceAll('-', '_')}`;
}
