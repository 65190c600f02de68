import { defineConfig } from 'vitest/config';

/**
 * The shared test config: generous timeouts for real databases and servers, and a JSON report
 * per package that `scripts/test-summary.mjs` adds up into one closing line.
 */
export function checklineTestConfig(test = {}) {
  return defineConfig({
    test: {
      testTimeout: 30_000,
      hookTimeout: 60_000,
      reporters: ['default', 'json'],
      outputFile: { json: '.vitest/report.json' },
      ...test,
    },
  });
}
