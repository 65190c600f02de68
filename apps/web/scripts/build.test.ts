import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFingerprint, workspaceDependencyFolders } from './build.ts';

const packages = fileURLToPath(new URL('../../../packages', import.meta.url));

describe('the build fingerprint', () => {
  // The generator's test writes packages under packages/ while the browser tests serve the build:
  // such a package must not make the build stale, or a rebuild would empty dist under them.
  it('ignores a workspace package the app does not depend on', () => {
    const before = sourceFingerprint();
    const folder = join(packages, `zz-fingerprint-${randomBytes(3).toString('hex')}`);
    try {
      mkdirSync(join(folder, 'src'), { recursive: true });
      writeFileSync(join(folder, 'package.json'), '{"name":"@checkline/zz-fingerprint"}\n');
      writeFileSync(join(folder, 'src', 'index.ts'), 'export const unrelated = 1;\n');
      expect(sourceFingerprint()).toBe(before);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('covers the packages the app imports and, transitively, what they import', () => {
    const folders = workspaceDependencyFolders(
      fileURLToPath(new URL('../package.json', import.meta.url)),
    );
    // The app imports catalog's contract; catalog imports core, which imports db.
    expect([...folders]).toEqual(expect.arrayContaining(['catalog', 'core', 'db']));
    expect(folders.has('notification-slack')).toBe(false);
  });
});
