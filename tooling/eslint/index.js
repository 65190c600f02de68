import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The shared lint config. `process.env` may be read only by the files listed in `envReaders`
 * (apps/server/src/env.ts and test/bench set-up), so configuration has one entry point.
 */
export function checklineConfig({ envReaders = [] } = {}) {
  return tseslint.config(
    { ignores: ['**/node_modules/**', '**/dist/**', '**/drizzle/**', 'data/**'] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
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
