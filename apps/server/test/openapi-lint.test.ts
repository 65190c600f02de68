import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Issue 24.8: the stock rule sets, with no project configuration: redocly runs in a folder with
 * no `redocly.yaml` (its built-in `recommended`), spectral with a ruleset that only extends
 * `spectral:oas`.
 */
describe('the served OpenAPI document', () => {
  it('passes plain `redocly lint` (recommended) with no error and no warning', async () => {
    const result = await runTool(
      'redocly',
      ['lint', documentFile, '--extends=recommended', '--format=json'],
      { cwd: folder, env: quiet },
    );
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(result.code).toBe(0);
  }, 180_000);

  it('passes plain `spectral lint` (spectral:oas) with no error and no warning', async () => {
    const ruleset = join(folder, 'stock-ruleset.yaml');
    writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
    const output = join(folder, 'spectral.json');
    const result = await runTool(
      'spectral',
      ['lint', documentFile, '--ruleset', ruleset, '--format', 'json', '--output', output],
      { cwd: folder },
    );
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

  it('keeps no linter configuration that turns a rule off', () => {
    expect(existsSync(join(serverFolder, 'redocly.yaml'))).toBe(false);
    const spectral = readFileSync(join(serverFolder, '.spectral.yaml'), 'utf8');
    expect(spectral).not.toMatch(/:\s*(off|false)\s*$/m);
  });
});
