import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

/** An array that adds up how many elements `indexOf` looks at. */
class CountingArray<T> extends Array<T> {
  static scanned = 0;
  override indexOf(item: T, from = 0): number {
    const found = super.indexOf(item, from);
    CountingArray.scanned += (found === -1 ? this.length : found + 1) - from;
    return found;
  }
}

interface DriverQueue<T> {
  readonly length: number;
  push(item: T): T;
  shift(): T;
  remove(item: T): T | null;
}

/**
 * The pool's busy queue while every connection stays busy: each new statement is pipelined on
 * the connection at the head (`shift`, then `move` back to busy), and each finished one moves
 * its connection to the tail again. Answers the elements scanned per statement, early and late.
 */
async function saturatedPool(driver: DriverName, statements: number) {
  const url = pathToFileURL(join(drivers[driver], 'src', 'queue.js')).href;
  const { default: Queue } = (await import(/* @vite-ignore */ url)) as {
    default: <T>(initial: T[]) => DriverQueue<T>;
  };
  const connections = Array.from({ length: 10 }, (_, id) => ({ id }));
  const busy = Queue(CountingArray.from(connections));
  const window = 1_000;
  const perStatement: number[] = [];
  for (let statement = 0; statement < statements; statement++) {
    const before = CountingArray.scanned;
    const head = busy.shift();
    busy.remove(head);
    busy.push(head);
    const finished = connections[statement % connections.length]!;
    busy.remove(finished);
    busy.push(finished);
    perStatement.push(CountingArray.scanned - before);
  }
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / window;
  return {
    early: average(perStatement.slice(0, window)),
    late: average(perStatement.slice(-window)),
    live: busy.length,
  };
}

describe('a saturated pool', () => {
  it('scans ever more elements per statement with the published driver', async () => {
    const { early, late } = await saturatedPool('published', 20_000);
    expect(late).toBeGreaterThan(early * 20);
  });

  it('scans no more than the live connections per statement with the installed one', async () => {
    const { early, late, live } = await saturatedPool('installed', 20_000);
    expect(live).toBe(10);
    expect(early).toBeLessThanOrEqual(2 * live);
    expect(late).toBeLessThanOrEqual(2 * live);
  });
});
