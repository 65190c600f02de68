import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationKey } from './migration-key.ts';

const scratch = mkdtempSync(join(tmpdir(), 'checkline-migration-key-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
function folderWith(files: Record<string, string>): string {
  const folder = join(scratch, String(folders++));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
  return folder;
}

const base = { '0000_init.sql': 'create table a (id int);', 'meta/_journal.json': '{}' };

describe('the key of a template', () => {
  it('is the same for the same migration files in other folders', () => {
    const one = [{ pluginId: 'demo', folder: folderWith(base) }];
    const two = [{ pluginId: 'demo', folder: folderWith(base) }];
    expect(migrationKey(one, 'pglite')).toBe(migrationKey(two, 'pglite'));
  });

  it.each([
    ['a changed statement', { ...base, '0000_init.sql': 'create table a (id bigint);' }],
    ['an added migration', { ...base, '0001_more.sql': 'create table b (id int);' }],
    ['a changed journal', { ...base, 'meta/_journal.json': '{"entries":[]}' }],
    ['a renamed file', { 'meta/_journal.json': '{}', '0000_first.sql': base['0000_init.sql'] }],
  ])('changes with %s', (_, files) => {
    const before = migrationKey([{ pluginId: 'demo', folder: folderWith(base) }], 'pglite');
    expect(migrationKey([{ pluginId: 'demo', folder: folderWith(files) }], 'pglite')).not.toBe(
      before,
    );
  });

  it('changes with the plugin id, the order of the plugins and the engine', () => {
    const a = { pluginId: 'a', folder: folderWith(base) };
    const b = { pluginId: 'b', folder: folderWith({ ...base, '0001_b.sql': 'select 1;' }) };
    const keys = [
      migrationKey([a, b], 'pglite'),
      migrationKey([b, a], 'pglite'),
      migrationKey([{ ...a, pluginId: 'c' }, b], 'pglite'),
      migrationKey([a, b], 'postgres:postgres://127.0.0.1/x'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
