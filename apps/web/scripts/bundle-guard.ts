import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { bundleViolations, type BundledModule } from './bundle-policy.ts';

const packagesFolder = fileURLToPath(new URL('../../../packages/', import.meta.url));

/** The file each workspace package exports as `./contract`. */
export function contractEntries(): Set<string> {
  const entries = new Set<string>();
  for (const name of readdirSync(packagesFolder)) {
    const manifest = join(packagesFolder, name, 'package.json');
    if (!existsSync(manifest)) continue;
    const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: unknown }).exports;
    const contract = (exports as Record<string, unknown> | undefined)?.['./contract'];
    if (typeof contract === 'string') entries.add(resolve(packagesFolder, name, contract));
  }
  return entries;
}

/**
 * Fails the production build when the bundle holds anything but browser code: see
 * `bundleViolations`. It reads the whole module graph, tree-shaken modules included.
 */
export function bundleGuard(): Plugin {
  return {
    name: 'checkline-bundle-guard',
    apply: 'build',
    generateBundle() {
      const modules: BundledModule[] = [];
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        modules.push({
          id,
          importers: [...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])],
          importedIds: [...(info?.importedIds ?? []), ...(info?.dynamicallyImportedIds ?? [])],
        });
      }
      const violations = bundleViolations(modules, {
        packagesFolder,
        contractEntries: contractEntries(),
      });
      if (violations.length > 0) {
        const shown = violations.slice(0, 20).join('\n  ');
        const more = violations.length > 20 ? `\n  ... and ${violations.length - 20} more` : '';
        this.error(`the web bundle holds server code:\n  ${shown}${more}`);
      }
    },
  };
}
