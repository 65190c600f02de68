import { checklineConfig } from '@checkline/eslint-config';

export default [
  // The generated test client is written by `pnpm openapi` and checked against it; lint fixes
  // there would be undone by the next generation, so it is not linted.
  { ignores: ['test/generated/**'] },
  // Scenarios importing clients generated in the test (checked there by tsc, beside that code).
  {
    ignores: [
      'test/client-scenarios/openapi-fetch.ts',
      'test/client-scenarios/orval.ts',
      'test/client-scenarios/hey-api.ts',
    ],
  },
  // run-tool.ts hands the environment on to the dev tools tests run (linters, tsc), adding to it;
  // server-process.ts starts the real server with an environment of its own (walkthrough.ts a
  // shell, with PATH only, for the documented commands); scripts/cluster.ts
  // hands the operator's environment on to the processes it starts.
  ...checklineConfig({
    root: import.meta.dirname,
    envReaders: [
      'src/env.ts',
      'bench/**/*.ts',
      'scripts/cluster.ts',
      'test/support/run-tool.ts',
      'test/support/server-process.ts',
      'test/support/walkthrough.ts',
    ],
  }),
];
