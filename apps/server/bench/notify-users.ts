import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Database, DatabaseHandle } from '@checkline/db';
import { insertNotifications } from '@checkline/notification';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { Hono } from 'hono';
import { z } from 'zod';

/** The server's connection behind a drizzle instance that counts every statement sent. */
function countingDatabase(handle: DatabaseHandle) {
  const counter = { statements: 0 };
  const logger = { logQuery: () => void counter.statements++ };
  const client = (handle.db as unknown as { $client: never }).$client;
  const db =
    handle.kind === 'pglite'
      ? drizzlePglite(client, { logger })
      : drizzlePostgres(client, { logger });
  return { db: db as unknown as Database, counter };
}

const RunSchema = z.object({
  users: z.int().min(1).max(10_000),
  /** The baseline: the same insert issued once per user instead of once for all. */
  perUser: z.boolean().default(false),
});

const benchNotification = {
  title: 'Bench',
  body: 'A notification to many users',
  importance: 'info' as const,
  type: 'bench.notify',
};

/**
 * POST /bench/notify-users `{users, perUser}`: `insertNotifications` to that many new user ids in
 * one transaction on the server's own database, as notifyUsers runs it; answers the time in
 * milliseconds (transaction and commit included) and the statements sent inside it.
 */
export function mountNotifyUsersBench(app: Hono, database: DatabaseHandle) {
  const { db, counter } = countingDatabase(database);
  app.post('/bench/notify-users', async (c) => {
    const { users, perUser } = RunSchema.parse(await c.req.json());
    const userIds = Array.from({ length: users }, () => randomUUID());
    counter.statements = 0;
    const started = performance.now();
    const written = await db.transaction(async (tx) => {
      if (!perUser) return insertNotifications(tx, userIds, benchNotification);
      let count = 0;
      for (const userId of userIds)
        count += await insertNotifications(tx, [userId], benchNotification);
      return count;
    });
    const ms = performance.now() - started;
    return c.json({ written, ms, statements: counter.statements });
  });
}
