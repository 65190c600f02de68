import { mkdtempSync, rmSync, writeFileSync, appendFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../src/env.ts';
import { contractEntries, refusedContractImports } from './support/contract-import-graph.ts';

describe('contract files stay browser-safe', () => {
  it('no contract entry reaches server-only code through its run-time imports', () => {
    expect(contractEntries(repositoryRoot).length).toBeGreaterThanOrEqual(6);
    expect(refusedContractImports(repositoryRoot)).toEqual([]);
  });

  describe('refuses each kind of server-only import, however deep', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'contract-graph-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    const cases = [
      { specifier: 'drizzle-orm' },
      { specifier: 'postgres' },
      { specifier: '@checkline/db' },
      { specifier: 'node:crypto' },
      { specifier: 'hono' },
      { specifier: '@orpc/server' },
      { specifier: 'pino' },
      { specifier: '@checkline/core' },
    ];
    it.each(cases)('$specifier imported by a schema file the contract imports', ({ specifier }) => {
      const root = join(scratch, specifier.replace(/\W/g, '_'));
      mkdirSync(join(root, 'apps'), { recursive: true });
      const folder = join(root, 'packages', 'demo', 'src');
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(root, 'packages', 'demo', 'package.json'),
        JSON.stringify({ name: '@checkline/demo', exports: { './contract': './src/contract.ts' } }),
      );
      writeFileSync(
        join(folder, 'contract.ts'),
        "import { z } from 'zod';\nimport type { Hidden } from 'pino';\nexport * from './schemas.ts';\n",
      );
      writeFileSync(join(folder, 'schemas.ts'), "export { thing } from './deeper.ts';\n");
      writeFileSync(join(folder, 'deeper.ts'), "import { z } from 'zod';\n");
      appendFileSync(join(folder, 'deeper.ts'), `import { thing } from '${specifier}';\n`);

      expect(refusedContractImports(root)).toEqual([
        {
          chain: [
            'packages/demo/src/contract.ts',
            'packages/demo/src/schemas.ts',
            'packages/demo/src/deeper.ts',
          ],
          specifier,
        },
      ]);
    });
  });
});
