import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, DatabaseHandle } from '@checkline/db';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { HealthcheckHarness, HealthcheckHarnessOptions } from './harness.ts';
import { startHealthcheck } from './harness.ts';

/**
 * The connection of `handle` behind a second drizzle instance whose logger sees every statement
 * sent through it, by any plugin: plugins called through contracts share the caller's `db`
 * (the event dispatcher's background polling excepted).
 */
function countingDatabase(handle: DatabaseHandle) {
  const statements: string[] = [];
  // Only statements sent from inside a counted call: background work on the same connection
  // (the event dispatcher's poll, subscribers of earlier events, timers) runs in other contexts.
  const counting = new AsyncLocalStorage<true>();
  const logger = {
    logQuery(query: string) {
      // The event dispatcher polls the outbox; those statements are no call's.
      if (counting.getStore() && !query.includes('"checkline"."event_outbox"')) {
        statements.push(query);
      }
    },
  };
  const client = (handle.db as unknown as { $client: never }).$client;
  const db =
    handle.kind === 'pglite'
      ? drizzlePglite(client, { logger })
      : drizzlePostgres(client, { logger });
  return {
    db: db as unknown as Database,
    /** Statements sent by `counted` calls since the last `reset`. */
    statements,
    reset() {
      statements.length = 0;
    },
    counted: <T>(call: () => Promise<T>) => counting.run(true, call),
  };
}

/**
 * A second plugin on `handle` whose statements are counted (see `countingDatabase`): `count`
 * answers what `ask` answered and how many statements it sent.
 */
export async function startCountedHarness(
  handle: DatabaseHandle,
  options: HealthcheckHarnessOptions = {},
) {
  const counted = countingDatabase(handle);
  const harness = await startHealthcheck(counted.db, options);
  return {
    harness,
    /** Statements sent since the last `count` began. */
    statements: counted.statements,
    async count<T>(ask: (harness: HealthcheckHarness) => Promise<T>) {
      counted.reset();
      const answer = await counted.counted(() => ask(harness));
      return { answer, count: counted.statements.length };
    },
    stop: () => harness.stop(),
  };
}
