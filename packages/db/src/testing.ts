import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import type { DatabaseHandle, PluginMigrations } from './database.ts';
import { connectPostgres, openPglite } from './create-database.ts';
import { openPgliteFromTemplate } from './test-templates/pglite-template.ts';
import { postgresTemplate } from './test-templates/postgres-template.ts';
import { createTestPostgresOn } from './test-postgres.ts';

/**
 * A database of its own for one test file, already holding `migrations`: in-memory PGlite, or,
 * when `DATABASE_URL` is set, a freshly created database on that PostgreSQL server that `close()`
 * drops again. Both are copies of a template migrated once per set of migrations (the migration
 * files are its key), not migrated again for every file.
 */
export async function createTestDatabase(
  migrations: readonly PluginMigrations[] = [],
): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  return url
    ? await createPostgresTestDatabase(url, migrations)
    : await openPgliteFromTemplate(migrations);
}

/**
 * An empty database with nothing migrated, for tests of the migrations themselves: in-memory
 * PGlite, or a new database on the `DATABASE_URL` server that `close()` drops.
 */
export async function createEmptyTestDatabase(): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  return url ? await createPostgresTestDatabase(url, undefined) : await openPglite('memory://');
}

export function testDatabaseKind(): 'postgres' | 'pglite' {
  return process.env.DATABASE_URL ? 'postgres' : 'pglite';
}

/** Another connection to the same test database (for example a second server process). */
export function testDatabaseUrl(handle: DatabaseHandle): string | undefined {
  return urls.get(handle);
}

const urls = new WeakMap<DatabaseHandle, string>();

/**
 * A test database holding `migrations` on the PostgreSQL server at `url`, whatever
 * `DATABASE_URL` says (a test's own throwaway cluster); `close()` drops it.
 */
export const createTestDatabaseOn = (url: string, migrations: readonly PluginMigrations[]) =>
  createPostgresTestDatabase(url, migrations);

async function createPostgresTestDatabase(
  url: string,
  migrations: readonly PluginMigrations[] | undefined,
): Promise<DatabaseHandle> {
  const template = migrations && (await postgresTemplate(url, migrations));
  const name = `checkline_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`);
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
export type { SmallDisk } from './small-disk.ts';
export { mountSmallDisk } from './small-disk.ts';
export type { TestPostgres } from './test-postgres.ts';

/**
 * A fresh database on a real PostgreSQL server whatever the run uses, for tests that need several
 * connections or processes: on `DATABASE_URL`'s server, else the machine's, else a throwaway one.
 */
export const createTestPostgres = () => createTestPostgresOn(process.env.DATABASE_URL);
