import {
  existsSync,
  mkdirSync,
  openAsBlob,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
 * on disk for every test process that asks for the same migrations.
 */
export async function openPgliteFromTemplate(
  migrations: readonly PluginMigrations[],
): Promise<DatabaseHandle> {
  const tar = await templateFile(migrations);
  markUsed(tar);
  return openPglite('memory://', { loadDataDir: await openAsBlob(tar) });
}

// Use is recorded beside the template, never on it: a file-backed Blob refuses to be read once
// its file's modification time changes, and test processes open the same template in parallel.
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

const inProcess = new Map<string, Promise<string>>();

function templateFile(migrations: readonly PluginMigrations[]): Promise<string> {
  const key = migrationKey(withInfrastructure(migrations), `pglite:${engine}`);
  let file = inProcess.get(key);
  if (!file) {
    file = buildOnce(key, migrations);
    inProcess.set(key, file);
    file.catch(() => inProcess.delete(key));
  }
  return file;
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

function removeUnused(current: string) {
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (!name.startsWith(current) && Date.now() - lastUsedMs(path) > unusedAfterMs) {
      rmSync(path, { force: true });
    }
  }
}
