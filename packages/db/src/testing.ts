import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import type { DatabaseHandle, PluginMigrations } from './database.ts';
import { connectPostgres, openPglite } from './create-database.ts';

/**
 * A database of its own for one test file: in-memory PGlite, or, when `DATABASE_URL` is set, a
 * freshly created database on that PostgreSQL server that `close()` drops again.
 */
export async function createTestDatabase(
  migrations: readonly PluginMigrations[] = [],
): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  const handle = url ? await createPostgresTestDatabase(url) : await openPglite('memory://');
  await handle.migrate(migrations);
  return handle;
}

export function testDatabaseKind(): 'postgres' | 'pglite' {
  return process.env.DATABASE_URL ? 'postgres' : 'pglite';
}

/** Another connection to the same test database (for example a second server process). */
export function testDatabaseUrl(handle: DatabaseHandle): string | undefined {
  return urls.get(handle);
}

const urls = new WeakMap<DatabaseHandle, string>();

async function createPostgresTestDatabase(url: string): Promise<DatabaseHandle> {
  const name = `checkline_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  const handle = connectPostgres(testUrl.toString(), { poolSize: 5 });
  const close = handle.close.bind(handle);
  const wrapped: DatabaseHandle = {
    ...handle,
    async close() {
      await close();
      const dropper = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
  urls.set(wrapped, testUrl.toString());
  return wrapped;
}

export type { ThrowawayPostgres } from './throwaway-postgres.ts';
export { freeLoopbackPort, startThrowawayPostgres } from './throwaway-postgres.ts';
