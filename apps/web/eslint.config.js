import { checklineConfig } from '@checkline/eslint-config';

export default [
  // The browser tests start the server and a browser; the build script sets NODE_ENV for Vite; the
  // bench reads its run count.
  ...checklineConfig({
    root: import.meta.dirname,
    envReaders: ['e2e/support/*.ts', 'scripts/*.ts', 'bench/*.ts'],
  }),
  {
    files: ['public/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly' } },
  },
];
