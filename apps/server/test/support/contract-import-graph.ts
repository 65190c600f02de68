import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** What a contract file, or anything it imports at run time, may import from outside the repository. */
const browserSafePackages = new Set(['zod', '@orpc/contract']);

export interface RefusedImport {
  /** The contract entry the walk started from, then each file on the way, repository-relative. */
  chain: string[];
  specifier: string;
}

interface WorkspacePackage {
  name: string;
  folder: string;
  exports: Record<string, string>;
}

function workspacePackages(root: string): Map<string, WorkspacePackage> {
  const found = new Map<string, WorkspacePackage>();
  for (const group of ['packages', 'apps']) {
    for (const entry of readdirSync(join(root, group))) {
      const folder = join(root, group, entry);
      const manifest = join(folder, 'package.json');
      if (!existsSync(manifest)) continue;
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name: string;
        exports?: Record<string, string>;
      };
      found.set(parsed.name, { name: parsed.name, folder, exports: parsed.exports ?? {} });
    }
  }
  return found;
}

/** Imports that stay at run time: `import type` and `export type` are erased by the compiler. */
function runtimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.isTypeOnly) continue;
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      if (statement.isTypeOnly) continue;
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers;
}

function workspaceTarget(
  specifier: string,
  packages: Map<string, WorkspacePackage>,
): string | undefined {
  for (const workspacePackage of packages.values()) {
    if (specifier !== workspacePackage.name && !specifier.startsWith(`${workspacePackage.name}/`)) {
      continue;
    }
    const subpath = `.${specifier.slice(workspacePackage.name.length)}`;
    const target = workspacePackage.exports[subpath];
    return target ? resolve(workspacePackage.folder, target) : undefined;
  }
  return undefined;
}

/**
 * Walks the run-time import graph of every package's `./contract` entry and returns each import
 * that leaves the browser-safe set: a package other than zod and @orpc/contract, a Node built-in,
 * or a workspace entry that is not itself walked as browser-safe code.
 */
export function refusedContractImports(root: string): RefusedImport[] {
  const packages = workspacePackages(root);
  const refused: RefusedImport[] = [];
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const here = [...chain, relative(root, file)];
    for (const specifier of runtimeSpecifiers(file)) {
      if (specifier.startsWith('.')) {
        walk(resolve(dirname(file), specifier), here);
        continue;
      }
      const workspaceFile = specifier.startsWith('@checkline/')
        ? workspaceTarget(specifier, packages)
        : undefined;
      // A workspace package is walked only through its own contract entry; its main entry is server code.
      if (workspaceFile && specifier.endsWith('/contract')) {
        walk(workspaceFile, here);
      } else if (!browserSafePackages.has(specifier)) {
        refused.push({ chain: here, specifier });
      }
    }
  };
  for (const workspacePackage of packages.values()) {
    const entry = workspacePackage.exports['./contract'];
    if (entry) walk(resolve(workspacePackage.folder, entry), []);
  }
  return refused;
}

/** The contract entries the walk starts from, for the test to show it walked something. */
export function contractEntries(root: string): string[] {
  return [...workspacePackages(root).values()]
    .filter((workspacePackage) => workspacePackage.exports['./contract'])
    .map((workspacePackage) => workspacePackage.name);
}
