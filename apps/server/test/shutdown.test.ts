import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '@checkline/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from './support/server-process.ts';
import { startServerProcess } from './support/server-process.ts';

const scratch = mkdtempSync(join(tmpdir(), 'checkline-shutdown-'));
const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.dispose()));
  rmSync(scratch, { recursive: true, force: true });
});

const shutdownTimeoutMs = 1_000;

async function startServer(dataDir: string, port: number, viaPnpm = false) {
  const server = startServerProcess(
    { PORT: String(port), DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs) },
    { viaPnpm },
  );
  started.push(server);
  return server;
}

/** A request the server can never finish: it announces a body and sends only part of it. */
async function stuckRequest(port: number) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.on('error', () => {});
  socket.write(
    'POST /api/catalog/ HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
      'content-length: 1000\r\n\r\n{"getSystems":',
  );
  return socket;
}

// Each test starts or stops a real process, which takes a while on a loaded machine.
describe('the server process', { timeout: 120_000 }, () => {
  const dataDir = join(scratch, 'data');
  let first: ServerProcess;
  let port: number;

  it('starts, locks its data folder and serves', async () => {
    port = await freeLoopbackPort();
    first = await startServer(dataDir, port);
    await first.waitForLog((line) => line.msg === 'listening', 60_000);
    expect(existsSync(join(dataDir, 'checkline.lock'))).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    // Every line on stdout is one JSON object: no task runner's prefix, no stray text.
    for (const line of first.rawLines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('refuses a second process on the same data folder, naming the folder and the holder', async () => {
    const second = await startServer(dataDir, await freeLoopbackPort());
    const exit = await second.exitWithin(60_000);
    expect(exit?.code).toBe(1);
    expect(second.rawLines).toHaveLength(1);
    const [fatal] = second.lines;
    expect(fatal).toMatchObject({ level: 60 });
    expect(fatal!.msg).toContain(`The data folder ${dataDir} is in use by process ${first.pid}`);
    expect(first.alive()).toBe(true);
  });

  it('on SIGTERM drains for SHUTDOWN_TIMEOUT_MS at most, exits and releases the lock', async () => {
    const stuck = await stuckRequest(port);
    first.signal('SIGTERM');
    // Generous bound over the configured deadline; without the deadline the stuck request
    // keeps the process alive for good.
    const exit = await first.exitWithin(shutdownTimeoutMs + 6_000);
    stuck.destroy();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(first.lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['draining in-flight requests', 'stopped']),
    );
    expect(existsSync(join(dataDir, 'checkline.lock'))).toBe(false);
  });
});

// Bounded by the wait for the exit (60 s), like the scenarios above: a busy machine takes longer
// than the default 30 s to start node with tsx.
describe('start-up failures', { timeout: 120_000 }, () => {
  it('are one JSON line at level fatal that says what is wrong in words', async () => {
    const server = startServerProcess({ BASE_URL: 'localhost:3000', PORT: 'eighty' });
    started.push(server);
    expect((await server.exitWithin(60_000))?.code).toBe(1);
    expect(server.rawLines).toHaveLength(1);
    expect(server.lines[0]).toMatchObject({
      level: 60,
      msg: expect.stringMatching(
        /^cannot start: Invalid environment: .*BASE_URL: must be an absolute http\(s\) URL/,
      ),
    });
    expect(server.lines[0]!.msg).toContain('PORT');
    expect(server.stderr()).toBe('');
  });
});

describe('pnpm start', () => {
  it('runs the server itself: SIGTERM to pnpm stops it and leaves no orphan behind', async () => {
    const dataDir = join(scratch, 'pnpm-start');
    const server = await startServer(dataDir, await freeLoopbackPort(), true);
    // `pnpm start` builds the web UI first when its build is missing or stale (a fresh clone):
    // that may take a minute or two on a busy machine before the server starts.
    await server.waitForLog((line) => line.msg === 'listening', 240_000);
    // Past pnpm's own header, every line is one JSON object.
    expect(server.lines.filter((line) => line.level >= 0).length).toBeGreaterThan(0);
    const serverPid = Number(readFileSync(join(dataDir, 'checkline.lock'), 'utf8'));
    expect(serverPid).not.toBe(server.pid);
    server.signal('SIGTERM');
    expect(await server.exitWithin(shutdownTimeoutMs + 6_000)).toBeDefined();
    expect(existsSync(join(dataDir, 'checkline.lock'))).toBe(false);
    expect(() => process.kill(serverPid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  }, 300_000);
});
