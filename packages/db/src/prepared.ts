import type { Database } from './database.ts';

/**
 * Builds a drizzle prepared statement once per database object and reuses it. A transaction is
 * its own database object, so a statement used inside one is prepared on that transaction and
 * runs on its connection.
 */
export function prepared<T>(build: (db: Database) => T): (db: Database) => T {
  const cache = new WeakMap<Database, T>();
  return (db) => {
    let statement = cache.get(db);
    if (statement === undefined) {
      statement = build(db);
      cache.set(db, statement);
    }
    return statement;
  };
}
