import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeOpenApi } from '../src/openapi-files.ts';
import { runTool, serverFolder } from './support/run-tool.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let folder: string;
let documentFile: string;

beforeAll(async () => {
  server = await createTestServer();
  folder = mkdtempSync(join(tmpdir(), 'checkline-openapi-lint-'));
  documentFile = join(folder, 'openapi.json');
  const session = await server.adminSession();
  const response = await server.request('/api/openapi.json', {
    headers: { cookie: session.cookie },
  });
  expect(response.status).toBe(200);
  writeFileSync(documentFile, serializeOpenApi(await response.json()));
});
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await server.close();
});

// No telemetry or update checks: tests reach nothing but loopback.
const quiet = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

describe('the served OpenAPI document', () => {
  it('passes `redocly lint` (recommended rules, redocly.yaml) with no error and no warning', async () => {
    const result = await runTool(
      'redocly',
      ['lint', documentFile, '--config', join(serverFolder, 'redocly.yaml'), '--format=json'],
      { env: quiet },
    );
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(result.code).toBe(0);
  }, 180_000);

  it('passes `spectral lint` (spectral:oas, .spectral.yaml) with no error and no warning', async () => {
    const output = join(folder, 'spectral.json');
    const result = await runTool('spectral', [
      'lint',
      documentFile,
      '--ruleset',
      join(serverFolder, '.spectral.yaml'),
      '--format',
      'json',
      '--output',
      output,
      '--fail-severity',
      'hint',
    ]);
    const problems = JSON.parse(readFileSync(output, 'utf8')) as {
      code: string;
      message: string;
      path: string[];
    }[];
    expect(
      problems.map((problem) => `${problem.code}: ${problem.message} at ${problem.path.join('.')}`),
    ).toEqual([]);
    expect(result.code).toBe(0);
  }, 180_000);

  it('turns a linter rule off only with its reason written beside it', () => {
    for (const file of ['redocly.yaml', '.spectral.yaml']) {
      const lines = readFileSync(join(serverFolder, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (/:\s*off\s*$/.test(line)) {
          expect(lines[index - 1], `${file}: reason above "${line.trim()}"`).toMatch(/^\s*#\s*\S/);
        }
      });
    }
  });
});
