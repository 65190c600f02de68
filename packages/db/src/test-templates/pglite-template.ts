import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle, PluginMigrations } from '../database.ts';
import { dumpPgliteDataDir, openPglite } from '../create-database.ts';
import { withInfrastructure } from '../infrastructure/migrations.ts';
import { withFileLock } from './file-lock.ts';
import { migrationKey } from './migration-key.ts';

/** Shared by every package's tests of this checkout: the workspace root's node_modules. */
const cacheDir = fileURLToPath(
  new URL('../../../../node_modules/.cache/checkline-test-db', import.meta.url),
);
/** Templates of other migration sets are removed once this old. */
const unusedAfterMs = 24 * 60 * 60_000;

// The engine's own location (its version is in the path) is part of the key: a data directory
// saved by another PGlite version is never loaded.
const engine = createRequire(import.meta.url).resolve('@electric-sql/pglite');

/**
 * An in-memory PGlite holding `migrations`, loaded from a data directory migrated once and saved
 * on disk for every test process that asks for the same migrations. A process keeps the saved
 * directory in memory for the next test file it runs.
 */
export async function openPgliteFromTemplate(
  migrations: readonly PluginMigrations[],
): Promise<DatabaseHandle> {
  const { file, bytes } = await template(migrations);
  markUsed(file);
  return openPglite('memory://', { loadDataDir: bytes });
}

// Use is recorded beside the template, never on it: test processes open the same template in
// parallel, and one that found it complete must never see it change.
const usedMarker = (tar: string) => `${tar}.used`;

function markUsed(tar: string) {
  const marker = usedMarker(tar);
  if (!existsSync(marker)) writeFileSync(marker, '');
  const now = new Date();
  utimesSync(marker, now, now);
}

function lastUsedMs(path: string): number {
  const marker = usedMarker(path);
  return statSync(existsSync(marker) ? marker : path).mtimeMs;
}

/** A saved template: its file, and its bytes as this process loaded them once. */
interface Template {
  file: string;
  bytes: Blob;
}

const inProcess = new Map<string, Promise<Template>>();

function template(migrations: readonly PluginMigrations[]): Promise<Template> {
  const key = migrationKey(withInfrastructure(migrations), `pglite:postgres-only:${engine}`);
  let loaded = inProcess.get(key);
  if (!loaded) {
    loaded = buildOnce(key, migrations).then(async (file) => ({
      file,
      bytes: new Blob([await readFile(file)]),
    }));
    inProcess.set(key, loaded);
    loaded.catch(() => inProcess.delete(key));
  }
  return loaded;
}

async function buildOnce(key: string, migrations: readonly PluginMigrations[]): Promise<string> {
  const file = join(cacheDir, `${key}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(cacheDir, { recursive: true });
  return withFileLock(join(cacheDir, `${key}.lock`), async () => {
    if (existsSync(file)) return file;
    const handle = await openPglite('memory://');
    try {
      await handle.migrate(migrations);
      await keepOnlyPostgresDatabase(handle);
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, Buffer.from(await (await dumpPgliteDataDir(handle)).arrayBuffer()));
      renameSync(partial, file);
    } finally {
      await handle.close();
    }
    removeUnused(key);
    return file;
  });
}

/**
 * Tests use the `postgres` database only. Without `template0` and `template1` the saved directory
 * every test file loads is about a third smaller (43 MB to 28 MB).
 */
async function keepOnlyPostgresDatabase(handle: DatabaseHandle) {
  for (const name of ['template0', 'template1']) {
    await handle.db.execute(sql.raw(`alter database ${name} is_template false`));
    await handle.db.execute(sql.raw(`drop database ${name}`));
  }
  await handle.db.execute(sql`checkpoint`);
}

function removeUnused(current: string) {
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (!name.startsWith(current) && Date.now() - lastUsedMs(path) > unusedAfterMs) {
      rmSync(path, { force: true });
    }
  }
}
