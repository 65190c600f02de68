import type { SQL } from 'drizzle-orm';
import type { Database } from './database.ts';

/**
 * Runs raw SQL and returns its rows on either driver: postgres-js answers an array of rows,
 * PGlite an object holding `rows`.
 */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const answer: unknown = await db.execute(query);
  const result = answer as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}
