import { checklineTestConfig } from '@checkline/vitest-config';

export default checklineTestConfig({ include: ['src/**/*.test.ts', 'test/**/*.test.ts'] });
