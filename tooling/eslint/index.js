import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The shared lint config. `process.env` may be read only by the files listed in `envReaders`
 * (apps/server/src/env.ts and test/bench set-up), so configuration has one entry point.
 * `root` is the package folder: the promise and assertion rules read its TypeScript program.
 */
export function checklineConfig({ root, envReaders = [], typeAware = true } = {}) {
  return tseslint.config(
    { ignores: ['**/node_modules/**', '**/dist/**', '**/drizzle/**', 'data/**'] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    // Named for every file, not only the type-aware ones: a run over several packages (lint-staged
    // from the root) otherwise cannot tell which package a plain .js file belongs to.
    { languageOptions: { parserOptions: { tsconfigRootDir: root } } },
    ...(typeAware
      ? [
          {
            files: ['**/*.ts', '**/*.tsx'],
            languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
            rules: {
              '@typescript-eslint/no-floating-promises': 'error',
              '@typescript-eslint/no-misused-promises': 'error',
              '@typescript-eslint/await-thenable': 'error',
              '@typescript-eslint/no-unnecessary-type-assertion': 'error',
            },
          },
        ]
      : []),
    {
      rules: {
        '@typescript-eslint/consistent-type-imports': 'error',
        '@typescript-eslint/no-unused-vars': [
          'error',
          { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
        ],
        'no-restricted-properties': [
          'error',
          {
            object: 'process',
            property: 'env',
            message: 'Read configuration through apps/server/src/env.ts.',
          },
        ],
      },
    },
    // Tests and benchmarks walk arbitrary JSON answers; typing each one would add noise, not safety.
    {
      files: ['**/*.test.ts', '**/test/**/*.ts', '**/bench/**/*.ts'],
      rules: { '@typescript-eslint/no-explicit-any': 'off' },
    },
    ...(envReaders.length
      ? [{ files: envReaders, rules: { 'no-restricted-properties': 'off' } }]
      : []),
  );
}
