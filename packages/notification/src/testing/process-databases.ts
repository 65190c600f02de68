import type { Database, DatabaseHandle } from '@checkline/db';
import { connectPostgres } from '@checkline/db';
import { testDatabaseUrl } from '@checkline/db/testing';

/**
 * Database connections for several server processes on one test database: on PostgreSQL each
 * process gets its own pool (as separate processes would); on PGlite they share its one
 * connection, which still interleaves their statements. `close` ends the pools opened.
 */
export function processDatabases(database: DatabaseHandle) {
  const pools: DatabaseHandle[] = [];
  return {
    connect(): Database {
      const url = testDatabaseUrl(database);
      if (!url) return database.db;
      const pool = connectPostgres(url, { poolSize: 3 });
      pools.push(pool);
      return pool.db;
    },
    async close() {
      for (const pool of pools) await pool.close();
    },
  };
}
