import { checklineTestConfig, testWorkers } from '@checkline/vitest-config';

// The server's scenarios spend most of their time waiting (servers, clusters, outages, retries),
// so twice as many files as CPUs run at once.
export default checklineTestConfig({
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  maxWorkers: testWorkers(2),
});
