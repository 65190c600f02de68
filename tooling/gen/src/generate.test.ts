import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, realpath, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { generatePackage, type PackageKind } from './generate.ts';

const run = promisify(execFile);
const workspaceRoot = fileURLToPath(new URL('../../..', import.meta.url));
const workspacePackages = ['apps', 'packages', 'tooling'].flatMap((group) =>
  readdirSync(join(workspaceRoot, group)).map((name) => join(workspaceRoot, group, name)),
);

/**
 * What `pnpm install` would link for a new package, without changing the lockfile: each
 * dependency symlinked from a workspace package that already has it installed.
 */
async function linkDependencies(packageDir: string) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  for (const name of names) {
    const installed = workspacePackages
      .map((dir) => join(dir, 'node_modules', name))
      .find((candidate) => existsSync(candidate));
    if (!installed) throw new Error(`No workspace package has ${name} installed`);
    const link = join(packageDir, 'node_modules', name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(await realpath(installed), link);
  }
}

/** Runs a tool's script with node in the package folder; rejects with its output on failure. */
async function tool(packageDir: string, script: string, args: string[]) {
  const path = join(packageDir, 'node_modules', script);
  try {
    await run(process.execPath, [path, ...args], { cwd: packageDir, maxBuffer: 10_000_000 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${script} ${args.join(' ')} failed:\n${stdout}\n${stderr}`, {
      cause: error,
    });
  }
}

const created: string[] = [];
afterEach(async () => {
  for (const dir of created.splice(0)) await rm(dir, { recursive: true, force: true });
});

// The folder names start with `zz-gen-` and a random part, so no real package is touched.
describe.each<PackageKind>(['plugin', 'channel', 'check-type'])('pnpm gen %s', (kind) => {
  it(
    'scaffolds a package that typechecks, lints and passes its first test unedited',
    { timeout: 600_000 },
    async () => {
      const name = `zz-gen-${randomBytes(3).toString('hex')}`;
      const packageDir = await generatePackage(kind, name, workspaceRoot);
      created.push(packageDir);
      expect(packageDir.startsWith(join(workspaceRoot, 'packages'))).toBe(true);
      await linkDependencies(packageDir);
      await tool(packageDir, 'typescript/bin/tsc', ['--noEmit', '-p', '.']);
      await tool(packageDir, 'eslint/bin/eslint.js', ['.', '--max-warnings=0']);
      await tool(packageDir, 'vitest/vitest.mjs', ['run', '--reporter=dot']);
    },
  );
});

describe('generatePackage', () => {
  it('refuses a name that is not kebab-case and a folder that exists', async () => {
    await expect(generatePackage('plugin', 'Bad_Name', workspaceRoot)).rejects.toThrow(
      /kebab-case/,
    );
    await expect(generatePackage('plugin', 'catalog', workspaceRoot)).rejects.toThrow(
      /exists already/,
    );
  });
});
