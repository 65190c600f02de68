import { checklineConfig } from '@checkline/eslint-config';

export default checklineConfig({
  envReaders: ['src/env.ts', 'bench/**/*.ts', 'test/support/server-process.ts'],
});
