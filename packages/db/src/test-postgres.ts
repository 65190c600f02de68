import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { startThrowawayPostgres } from './throwaway-postgres.ts';

/** The machine's PostgreSQL as CI and developers run it (trust authentication). */
const MACHINE_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/** An empty PostgreSQL database of a test's own; `drop()` removes it (and its cluster, if any). */
export interface TestPostgres {
  url: string;
  drop(): Promise<void>;
}

async function reachable(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 0 });
  }
}

async function createDatabaseOn(serverUrl: string): Promise<TestPostgres> {
  const name = `checkline_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/**
 * A fresh database on a real PostgreSQL server: on the `configured` server (the test run's
 * `DATABASE_URL`), else on the machine's server at 127.0.0.1:5432, else on a throwaway cluster
 * started for it.
 */
export async function createTestPostgresOn(configured: string | undefined): Promise<TestPostgres> {
  if (configured) return createDatabaseOn(configured);
  if (await reachable(MACHINE_SERVER)) return createDatabaseOn(MACHINE_SERVER);
  const cluster = await startThrowawayPostgres();
  const database = await createDatabaseOn(cluster.url);
  return {
    url: database.url,
    async drop() {
      await cluster.destroy();
    },
  };
}
