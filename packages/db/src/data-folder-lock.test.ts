import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './create-database.ts';
import { DataFolderLockedError, lockDataFolder } from './data-folder-lock.ts';

const scratch = mkdtempSync(join(tmpdir(), 'checkline-lock-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
  rmSync(scratch, { recursive: true, force: true });
});

/** A live process of ours, standing in for another server holding the folder. */
async function otherProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child as ChildProcess & { pid: number };
}

describe('the data folder lock', () => {
  it('is taken when PGlite opens a folder, names this process, and is released on close', async () => {
    const folder = join(scratch, 'open-close');
    const database = await openPglite(folder);
    const lockFile = join(folder, 'checkline.lock');
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
    await expect(openPglite(folder)).rejects.toThrow(DataFolderLockedError);
    await database.close();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('refuses a folder held by another live process, naming the folder and its PID', async () => {
    const folder = join(scratch, 'held');
    const holder = await otherProcess();
    lockDataFolder(folder).release();
    writeFileSync(join(folder, 'checkline.lock'), `${holder.pid}\n`);
    let refusal: unknown;
    try {
      lockDataFolder(folder);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataFolderLockedError);
    expect((refusal as Error).message).toContain(folder);
    expect((refusal as Error).message).toContain(`process ${holder.pid}`);
  });

  it('takes over the lock of a process that is gone', async () => {
    const folder = join(scratch, 'stale');
    const holder = await otherProcess();
    lockDataFolder(folder).release();
    writeFileSync(join(folder, 'checkline.lock'), `${holder.pid}\n`);
    holder.kill();
    await new Promise((resolve) => holder.once('exit', resolve));
    const lock = lockDataFolder(folder);
    expect(readFileSync(lock.lockFile, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });
});
