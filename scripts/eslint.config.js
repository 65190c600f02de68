import { checklineConfig } from '../tooling/eslint/index.js';

// The repository's own scripts (CI helpers): plain JavaScript run by Node, which reads the environment
// it is given. Without this file lint-staged finds no config for them and refuses the commit.
export default [
  ...checklineConfig({ root: import.meta.dirname, typeAware: false, envReaders: ['**/*.mjs'] }),
  { languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } } },
];
