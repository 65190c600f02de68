import postgres from 'postgres';
import type { PluginMigrations } from '../database.ts';
import { connectPostgres } from '../create-database.ts';
import { withInfrastructure } from '../infrastructure/migrations.ts';
import { migrationKey } from './migration-key.ts';

/** The comment that marks the templates made for the database of `url` (see `ci-database.mjs`). */
function templateMarkFor(url: string): string {
  return `checkline test template for ${new URL(url).pathname.slice(1)}`;
}

const inProcess = new Map<string, Promise<string>>();

/**
 * The name of a database on the server of `url` that holds `migrations`, made once per migration
 * set: the first process migrates it under an advisory lock, every test copies it with
 * `CREATE DATABASE ... TEMPLATE`.
 */
export function postgresTemplate(url: string, migrations: readonly PluginMigrations[]) {
  const key = migrationKey(withInfrastructure(migrations), `postgres:${url}`);
  let name = inProcess.get(key);
  if (!name) {
    name = buildOnce(url, `checkline_tpl_${key}`, migrations);
    inProcess.set(key, name);
    name.catch(() => inProcess.delete(key));
  }
  return name;
}

async function buildOnce(url: string, name: string, migrations: readonly PluginMigrations[]) {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin`select pg_advisory_lock(hashtext(${name}))`;
    const [found] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!found) {
      // Built under another name and renamed when complete, so a half-migrated template left by
      // a process that died is never copied.
      const building = `${name}_wip`;
      await admin.unsafe(`drop database if exists ${building} with (force)`);
      await admin.unsafe(`create database ${building}`);
      const buildingUrl = new URL(url);
      buildingUrl.pathname = `/${building}`;
      const handle = connectPostgres(buildingUrl.toString(), { poolSize: 1 });
      try {
        await handle.migrate(migrations);
      } finally {
        await handle.close();
      }
      await admin.unsafe(`alter database ${building} rename to ${name}`);
      await admin.unsafe(
        `comment on database ${name} is '${templateMarkFor(url).replaceAll("'", "''")}'`,
      );
    }
    await admin`select pg_advisory_unlock(hashtext(${name}))`;
  } finally {
    await admin.end();
  }
  return name;
}
