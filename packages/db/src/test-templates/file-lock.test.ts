import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { withFileLock } from './file-lock.ts';

const scratch = mkdtempSync(join(tmpdir(), 'checkline-file-lock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('withFileLock', () => {
  it('runs the work of concurrent callers one at a time, and removes the lock after', async () => {
    const lock = join(scratch, 'one.lock');
    let inside = 0;
    let most = 0;
    const work = async () => {
      inside += 1;
      most = Math.max(most, inside);
      await sleep(20);
      inside -= 1;
    };
    await Promise.all(Array.from({ length: 4 }, () => withFileLock(lock, work)));
    expect(most).toBe(1);
    await expect(withFileLock(lock, () => Promise.resolve('free again'))).resolves.toBe(
      'free again',
    );
  });

  it('releases the lock when the work fails', async () => {
    const lock = join(scratch, 'failing.lock');
    await expect(withFileLock(lock, () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(withFileLock(lock, () => Promise.resolve(1))).resolves.toBe(1);
  });

  it('takes over a lock whose process has exited', async () => {
    const lock = join(scratch, 'orphan.lock');
    const exited = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(lock, String(exited));
    await expect(withFileLock(lock, () => Promise.resolve('taken'))).resolves.toBe('taken');
  });

  it('waits for a lock whose process is alive, while it is young', async () => {
    const lock = join(scratch, 'held.lock');
    writeFileSync(lock, String(process.pid));
    let done = false;
    const waiting = withFileLock(lock, () => Promise.resolve((done = true)));
    await sleep(300);
    expect(done).toBe(false);
    rmSync(lock);
    await waiting;
    expect(done).toBe(true);
  });

  it('takes over a lock left long ago, whoever holds it', async () => {
    const lock = join(scratch, 'stale.lock');
    writeFileSync(lock, String(process.pid));
    const longAgo = new Date(Date.now() - 60 * 60_000);
    utimesSync(lock, longAgo, longAgo);
    await expect(withFileLock(lock, () => Promise.resolve('taken'))).resolves.toBe('taken');
  });
});
