import { describe, expect, it } from 'vitest';
import { bundleViolations, type BundledModule } from './bundle-policy.ts';

const packages = '/repo/packages/';
const policy = {
  packagesFolder: packages,
  contractEntries: new Set([`${packages}auth/src/contract.ts`, `${packages}core/src/contract.ts`]),
};
const app = '/repo/apps/web/src/api/contracts.ts';
const zod = '/repo/node_modules/.pnpm/zod@4/node_modules/zod/index.js';

const module = (id: string, importers: string[], importedIds: string[] = []): BundledModule => ({
  id,
  importers,
  importedIds,
});

/** The graph of a clean bundle: the app imports a contract, which imports its schemas. */
const cleanGraph = [
  module(app, [], [`${packages}auth/src/contract.ts`]),
  module(
    `${packages}auth/src/contract.ts`,
    [app],
    [`${packages}auth/src/schemas.ts`, `${packages}core/src/contract.ts`],
  ),
  module(`${packages}auth/src/schemas.ts`, [`${packages}auth/src/contract.ts`], [zod]),
  module(`${packages}core/src/contract.ts`, [`${packages}auth/src/contract.ts`]),
  module(zod, [`${packages}auth/src/schemas.ts`]),
];

describe('the bundle guard', () => {
  it('accepts contracts, the files they import and browser packages', () => {
    expect(bundleViolations(cleanGraph, policy)).toEqual([]);
  });

  it.each([
    {
      case: 'a server file of a plugin imported by the app',
      extra: [module(`${packages}auth/src/service.ts`, [app])],
      found: 'workspace module outside a contract: /repo/packages/auth/src/service.ts',
    },
    {
      case: "a contract's sibling imported by the app directly",
      extra: [module(`${packages}auth/src/schemas.ts`, [app])],
      found: 'workspace module outside a contract: /repo/packages/auth/src/schemas.ts',
    },
    {
      case: 'a node builtin',
      extra: [module('node:crypto', [`${packages}auth/src/schemas.ts`])],
      found: 'node builtin node:crypto',
    },
    {
      case: 'a builtin Vite replaced with its browser stub',
      extra: [module('\0__vite-browser-external:fs', [`${packages}auth/src/schemas.ts`])],
      found: 'node builtin fs',
    },
    {
      case: 'a server-only package',
      extra: [
        module('/repo/node_modules/.pnpm/drizzle-orm@0/node_modules/drizzle-orm/index.js', [
          `${packages}auth/src/schemas.ts`,
        ]),
      ],
      found: 'server-only package drizzle-orm',
    },
  ])('refuses $case', ({ extra, found }) => {
    const graph = [...cleanGraph.filter((m) => !extra.some((e) => e.id === m.id)), ...extra];
    const violations = bundleViolations(graph, policy);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain(found);
  });
});
