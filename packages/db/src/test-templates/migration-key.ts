import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PluginMigrations } from '../database.ts';

/**
 * A short hash of every file in each migration folder (names and contents, in migration order)
 * plus `extra`: a template saved under this key is reused only while none of it changed.
 */
export function migrationKey(migrations: readonly PluginMigrations[], extra: string): string {
  const hash = createHash('sha256').update(extra);
  for (const plugin of migrations) {
    hash.update(`\0plugin:${plugin.pluginId}`);
    for (const file of filesUnder(plugin.folder)) {
      hash.update(`\0file:${file}\0`).update(readFileSync(join(plugin.folder, file)));
    }
  }
  return hash.digest('hex').slice(0, 24);
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1))
    .sort();
}
