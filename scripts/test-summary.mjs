// Adds up the JSON reports vitest wrote in each package into one closing line, and repeats every
// failure (test, file that did not load, run that failed on an unhandled error) at the end, where a
// CI log cut to its last lines still shows it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

const packages = ['apps', 'packages', 'tooling']
  .flatMap((group) => readdirSync(group).map((name) => `${group}/${name}`))
  .concat('docs/examples')
  .filter((dir) => existsSync(`${dir}/vitest.config.ts`));
let passed = 0;
let failed = 0;
let skipped = 0;
let reported = 0;
const problems = [];

const firstLines = (text, count) => String(text).split('\n').slice(0, count).join('\n    ');

for (const dir of packages) {
  const file = `${dir}/.vitest/report.json`;
  if (!existsSync(file)) {
    problems.push(`${dir}: no test report (the run did not finish or did not start)`);
    continue;
  }
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`${dir}: unreadable test report (${error.message})`);
    continue;
  }
  reported += 1;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  let named = 0;
  for (const result of report.testResults) {
    const failedTests = result.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      named += 1;
      problems.push(
        `${dir}: FAILED ${result.name.replace(`${process.cwd()}/`, '')} > ${test.fullName}\n    ${firstLines(test.failureMessages.join('\n'), 12)}`,
      );
    }
    if (result.status === 'failed' && failedTests.length === 0) {
      named += 1;
      problems.push(
        `${dir}: FAILED to run ${result.name.replace(`${process.cwd()}/`, '')}\n    ${firstLines(result.message, 12)}`,
      );
    }
  }
  if (!report.success && named === 0) {
    problems.push(
      `${dir}: the run failed without a failing test (an unhandled error; see its log)`,
    );
  }
}

if (reported === 0) {
  console.log('Tests: no package wrote a test report (the tests did not run)');
  process.exit(0);
}
for (const problem of problems) console.log(problem);
console.log(
  `Tests: ${passed} passed, ${failed} failed, ${skipped} skipped (${reported} of ${packages.length} packages reported)`,
);
