/** The files every generated package has besides its sources: manifest and tool configs. */
export function packageFiles(options: {
  packageName: string;
  dependencies: readonly string[];
  /** Besides the tools every package has. */
  devDependencies?: readonly string[];
  readme: string;
}): Record<string, string> {
  const version = (name: string) => (name.startsWith('@checkline/') ? 'workspace:*' : 'catalog:');
  const versions = (names: readonly string[]) =>
    Object.fromEntries([...names].sort().map((name) => [name, version(name)]));
  const manifest = {
    name: options.packageName,
    private: true,
    version: '0.0.0',
    type: 'module',
    exports: { '.': './src/index.ts' },
    scripts: {
      test: 'vitest run',
      typecheck: 'tsc --noEmit',
      lint: 'eslint . --max-warnings=0',
    },
    dependencies: versions(options.dependencies),
    devDependencies: versions([
      ...(options.devDependencies ?? []),
      '@checkline/eslint-config',
      '@checkline/tsconfig',
      '@checkline/vitest-config',
      '@types/node',
      'eslint',
      'typescript',
      'vitest',
    ]),
  };
  return {
    'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'tsconfig.json': `{
  "extends": "@checkline/tsconfig/base.json",
  "include": ["src", "*.ts"]
}
`,
    'eslint.config.js': `import { checklineConfig } from '@checkline/eslint-config';

export default checklineConfig({ root: import.meta.dirname });
`,
    'vitest.config.ts': `import { checklineTestConfig } from '@checkline/vitest-config';

export default checklineTestConfig();
`,
    'README.md': options.readme,
  };
}
