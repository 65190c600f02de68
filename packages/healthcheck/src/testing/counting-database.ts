import type { Database, DatabaseHandle } from '@checkline/db';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';

/**
 * The connection of `handle` behind a second drizzle instance whose logger sees every statement
 * sent through it, by any plugin: plugins called through contracts share the caller's `db`
 * (the event dispatcher's background polling excepted).
 */
export function countingDatabase(handle: DatabaseHandle) {
  const statements: string[] = [];
  const logger = {
    logQuery(query: string) {
      // The event dispatcher polls the outbox in the background; those statements are no call's.
      if (!query.includes('"checkline"."event_outbox"')) statements.push(query);
    },
  };
  const client = (handle.db as unknown as { $client: never }).$client;
  const db =
    handle.kind === 'pglite'
      ? drizzlePglite(client, { logger })
      : drizzlePostgres(client, { logger });
  return {
    db: db as unknown as Database,
    /** Statements sent since the last `reset`. */
    statements,
    reset() {
      statements.length = 0;
    },
  };
}
