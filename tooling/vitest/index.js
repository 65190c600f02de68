import { availableParallelism } from 'node:os';
import process from 'node:process';
import { defineConfig } from 'vitest/config';

/**
 * How many test files of a package run at once: `CHECKLINE_TEST_WORKERS` when set, else
 * `perCpu` times the CPUs. Vitest's own default is one less than the CPUs, one on a 2-core
 * machine, which ran a package's files one after another although most of their time is spent
 * waiting on servers, timers and child processes rather than computing.
 */
export function testWorkers(perCpu = 1) {
  const set = Number(process.env.CHECKLINE_TEST_WORKERS);
  if (Number.isInteger(set) && set > 0) return set;
  return Math.max(1, Math.round(availableParallelism() * perCpu));
}

/**
 * Whether each test file gets fresh modules: only with `CHECKLINE_TEST_ISOLATE=1`. By default a
 * worker keeps the modules it imported for the next file, which halved the server package's CPU
 * (loading the server's module graph again for every file cost more than most files' tests).
 * Files still share nothing else: each builds its own database and server, and closes them. Set
 * it when a file passes alone but fails after another, to tell a leak from a bug.
 */
export function testIsolation() {
  return process.env.CHECKLINE_TEST_ISOLATE === '1';
}

/**
 * The shared test config: generous timeouts for real databases and servers, files run
 * `testWorkers()` at a time in workers that keep their modules (`testIsolation()`), and a JSON
 * report per package that `scripts/test-summary.mjs` adds up into one closing line.
 */
export function checklineTestConfig(test = {}) {
  return defineConfig({
    test: {
      testTimeout: 30_000,
      hookTimeout: 60_000,
      maxWorkers: testWorkers(),
      isolate: testIsolation(),
      reporters: ['default', 'json'],
      outputFile: { json: '.vitest/report.json' },
      ...test,
    },
  });
}
