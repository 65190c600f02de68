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
      const answer = await ask(harness);
      return { answer, count: counted.statements.length };
    },
    stop: () => harness.stop(),
  };
}
