import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, DatabaseHandle } from '@checkline/db';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';

/**
 * The handle's connection behind a drizzle instance that counts the statements sent on behalf of
 * work started inside `statementsDuring` (async context), so background work of the server (the
 * scheduler, the event dispatcher) does not count.
 */
export function countingDatabase(handle: DatabaseHandle) {
  const scope = new AsyncLocalStorage<{ statements: number }>();
  const logger = {
    logQuery: () => {
      const counter = scope.getStore();
      if (counter) counter.statements += 1;
    },
  };
  const client = (handle.db as unknown as { $client: never }).$client;
  const db =
    handle.kind === 'pglite'
      ? drizzlePglite(client, { logger })
      : drizzlePostgres(client, { logger });
  return {
    handle: { ...handle, db: db as unknown as Database } satisfies DatabaseHandle,
    /** Runs `work` and answers its result with the statements it sent. */
    async statementsDuring<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
      const counter = { statements: 0 };
      const result = await scope.run(counter, work);
      return { result, statements: counter.statements };
    },
  };
}
