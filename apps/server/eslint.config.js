import { checklineConfig } from '@checkline/eslint-config';

// run-tool.ts hands the environment on to the dev tools tests run (linters, tsc), adding to it;
// server-process.ts starts the real server with an environment of its own.
export default checklineConfig({
  envReaders: [
    'src/env.ts',
    'bench/**/*.ts',
    'test/support/run-tool.ts',
    'test/support/server-process.ts',
  ],
});
