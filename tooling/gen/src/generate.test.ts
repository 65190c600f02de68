import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, realpath, rm, symlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const kinds: PackageKind[] = ['plugin', 'channel', 'check-type'];
const generated = new Map<PackageKind, string>();

// The folder names start with `zz-gen-` and a random part, so no real package is touched.
beforeAll(async () => {
  for (const kind of kinds) {
    const packageDir = await generatePackage(
      kind,
      `zz-gen-${randomBytes(3).toString('hex')}`,
      workspaceRoot,
    );
    generated.set(kind, packageDir);
    await linkDependencies(packageDir);
  }
});
afterAll(async () => {
  for (const dir of generated.values()) await rm(dir, { recursive: true, force: true });
});

const folders = () => [...generated.values()];

describe.each(kinds)('pnpm gen %s', (kind) => {
  it('scaffolds a package in packages/ that passes its first test unedited', async () => {
    const packageDir = generated.get(kind)!;
    expect(packageDir.startsWith(join(workspaceRoot, 'packages'))).toBe(true);
    await tool(packageDir, 'vitest/vitest.mjs', ['run', '--reporter=dot']);
  });
});

// Type-checking and type-aware linting load the workspace sources a package imports, the same
// for all three: one program over the three packages and one ESLint run cost about a third of
// checking each package apart.
describe('the three generated packages', () => {
  it(
    'typecheck unedited, as one program under the tsconfig they share',
    { timeout: 300_000 },
    async () => {
      const [first, ...others] = folders();
      const own = readFileSync(join(first!, 'tsconfig.json'), 'utf8');
      for (const dir of others) expect(readFileSync(join(dir, 'tsconfig.json'), 'utf8')).toBe(own);
      const included = (dir: string) => [
        `${relative(first!, dir) || '.'}/src`,
        `${relative(first!, dir) || '.'}/*.ts`,
      ];
      writeFileSync(
        join(first!, 'tsconfig.all.json'),
        JSON.stringify({ extends: './tsconfig.json', include: folders().flatMap(included) }),
      );
      await tool(first!, 'typescript/bin/tsc', ['--noEmit', '-p', 'tsconfig.all.json']);
    },
  );

  it('lint unedited, each with its own ESLint config', { timeout: 300_000 }, async () => {
    const [first] = folders();
    await tool(first!, 'eslint/bin/eslint.js', [...folders(), '--max-warnings=0']);
  });
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
