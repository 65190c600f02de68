import { isBuiltin } from 'node:module';

/** A module of the build's graph, as Rollup/Rolldown describes it. */
export interface BundledModule {
  id: string;
  importers: readonly string[];
  importedIds: readonly string[];
}

export interface BundlePolicy {
  /** Absolute folder of the workspace's packages (`<repo>/packages/`). */
  packagesFolder: string;
  /** Absolute files of every package's browser-safe `./contract` export. */
  contractEntries: ReadonlySet<string>;
}

/** Packages that only make sense on the server; one of them in the bundle means server code leaked. */
export const serverOnlyPackages = [
  '@checkline/db',
  '@electric-sql/pglite',
  '@hono/node-server',
  '@orpc/server',
  '@zxcvbn-ts/language-common',
  'drizzle-orm',
  'hono',
  'nodemailer',
  'openid-client',
  'pino',
  'postgres',
  'rate-limiter-flexible',
  'smtp-server',
  'undici',
];

const fileOf = (id: string) => id.replace(/^\0/, '').split('?')[0]!;

function packageOf(file: string): string | undefined {
  const at = file.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const [first, second] = file.slice(at + '/node_modules/'.length).split('/');
  return first?.startsWith('@') ? `${first}/${second}` : first;
}

function nodeBuiltin(id: string): string | undefined {
  const bare = id.replace(/^\0/, '').replace(/^__vite-browser-external:/, '');
  if (bare.startsWith('node:') || (!bare.includes('/') && isBuiltin(bare))) return bare;
  if (id.includes('__vite-browser-external')) return bare;
  return undefined;
}

/**
 * Everything in the bundle that does not belong in a browser: node builtins, server-only
 * packages, and workspace code other than the plugins' `contract` entries and the files those
 * entries import. The app itself may import a workspace package only through a contract entry.
 */
export function bundleViolations(
  modules: readonly BundledModule[],
  policy: BundlePolicy,
): string[] {
  const byFile = new Map(modules.map((module) => [fileOf(module.id), module]));
  const inWorkspace = (file: string) =>
    file.startsWith(policy.packagesFolder) && !file.includes('/node_modules/');

  // Workspace files reachable from a contract entry through workspace files only.
  const fromContracts = new Set<string>();
  const queue = [...policy.contractEntries].filter((entry) => byFile.has(entry));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (fromContracts.has(file)) continue;
    fromContracts.add(file);
    for (const imported of byFile.get(file)?.importedIds ?? []) {
      const importedFile = fileOf(imported);
      if (inWorkspace(importedFile)) queue.push(importedFile);
    }
  }

  const violations: string[] = [];
  for (const module of modules) {
    const file = fileOf(module.id);
    const importedBy = module.importers.map(fileOf).join(', ') || 'the entry';
    const builtin = nodeBuiltin(module.id);
    if (builtin) {
      violations.push(`node builtin ${builtin} (imported by ${importedBy})`);
      continue;
    }
    const thirdParty = packageOf(file);
    if (thirdParty && serverOnlyPackages.includes(thirdParty)) {
      violations.push(`server-only package ${thirdParty}: ${file} (imported by ${importedBy})`);
      continue;
    }
    if (!inWorkspace(file)) continue;
    const importedFromOutside = module.importers
      .map(fileOf)
      .some((importer) => !inWorkspace(importer));
    if (!fromContracts.has(file) || (importedFromOutside && !policy.contractEntries.has(file))) {
      violations.push(`workspace module outside a contract: ${file} (imported by ${importedBy})`);
    }
  }
  return violations;
}
