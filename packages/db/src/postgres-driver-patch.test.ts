import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThrowawayPostgres } from './throwaway-postgres.ts';
import { startThrowawayPostgres } from './throwaway-postgres.ts';

/*
 * postgres-js 3.4.9 is patched (patches/postgres@3.4.9.patch). Each defect is shown on the
 * driver as published, rebuilt here by reversing the patch on a copy of the installed one, and
 * the installed driver is shown to behave.
 */
const run = promisify(execFile);
const patchFile = fileURLToPath(new URL('../../../patches/postgres@3.4.9.patch', import.meta.url));
const scenarioScript = fileURLToPath(
  new URL('../test/fixtures/driver-scenario.mjs', import.meta.url),
);
const installed = dirname(dirname(fileURLToPath(import.meta.resolve('postgres'))));
const scratch = mkdtempSync(join(tmpdir(), 'checkline-driver-'));
const published = join(scratch, 'postgres');

const drivers = { published, installed };
type DriverName = keyof typeof drivers;

let server: ThrowawayPostgres;
beforeAll(async () => {
  cpSync(join(installed, 'src'), join(published, 'src'), { recursive: true });
  cpSync(join(installed, 'package.json'), join(published, 'package.json'));
  await run('git', ['apply', '-R', '--include=src/*', patchFile], { cwd: published });
  server = await startThrowawayPostgres();
});
afterAll(async () => {
  await server?.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

async function scenario(driver: DriverName, name: string) {
  const entry = join(drivers[driver], 'src', 'index.js');
  try {
    const { stdout } = await run('node', [scenarioScript, entry, server.url, name], {
      timeout: 25_000,
    });
    return { exitCode: 0, result: JSON.parse(stdout) as Record<string, string>, stderr: '' };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { exitCode: failed.code ?? -1, result: undefined, stderr: failed.stderr ?? '' };
  }
}

describe('a write on a connection whose socket has closed', () => {
  it('crashes the process with the published driver', async () => {
    const outcome = await scenario('published', 'write-after-close');
    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.stderr).toContain("Cannot read properties of null (reading 'write')");
  });

  it('rejects the statement with CONNECTION_CLOSED with the installed one, which then recovers', async () => {
    const outcome = await scenario('installed', 'write-after-close');
    expect(outcome).toMatchObject({
      exitCode: 0,
      result: { transaction: 'CONNECTION_CLOSED', afterwards: 'ok' },
    });
  });
});

describe('a connection torn down while a write waits for its flush', () => {
  it('never writes again with the published driver (the pool is poisoned)', async () => {
    const outcome = await scenario('published', 'close-with-pending-write');
    expect(outcome.result).toEqual({
      pending: 'CONNECTION_CLOSED',
      next: 'CONNECT_TIMEOUT',
      again: 'CONNECT_TIMEOUT',
    });
  });

  it('reconnects and answers with the installed one', async () => {
    const outcome = await scenario('installed', 'close-with-pending-write');
    expect(outcome.result).toEqual({ pending: 'CONNECTION_CLOSED', next: 'ok', again: 'ok' });
  });
});

describe('a pool kept saturated (50 callers, 10 connections, 20 000 statements)', () => {
  const windows = async (driver: DriverName) => {
    const outcome = await scenario(driver, 'saturated-pool');
    const perStatement = (outcome.result as unknown as { scannedPerStatement: number[] })
      .scannedPerStatement;
    expect(perStatement).toHaveLength(10);
    return { first: perStatement[0]!, last: perStatement.at(-1)!, all: perStatement };
  };

  it('makes each statement scan more queue elements the longer it lasts, with the published driver', async () => {
    const { first, last } = await windows('published');
    expect(last).toBeGreaterThan(first * 10);
  });

  it('keeps the elements scanned per statement flat with the installed one', async () => {
    const { first, all } = await windows('installed');
    for (const window of all) expect(window).toBeLessThanOrEqual(Math.max(first * 2, 20));
  });
});
