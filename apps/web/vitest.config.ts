import { checklineTestConfig } from '@checkline/vitest-config';

// Unit tests of components run in happy-dom; the browser tests (e2e/) drive Debian's chromium
// against the real server and share one build, so they run one file at a time.
export default checklineTestConfig({
  include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'e2e/**/*.test.ts'],
  fileParallelism: false,
  globalSetup: ['e2e/support/build-once.ts'],
});
