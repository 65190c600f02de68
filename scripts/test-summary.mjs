// Adds up the JSON reports vitest wrote in each package into one closing line.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

const reports = ['apps', 'packages']
  .flatMap((group) => readdirSync(group).map((name) => `${group}/${name}/.vitest/report.json`))
  .filter((file) => existsSync(file));
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of reports) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
console.log(
  `Tests: ${passed} passed, ${failed} failed, ${skipped} skipped (${reports.length} packages)`,
);
