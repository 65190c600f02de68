import { readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** A lock older than this (or whose process is gone) was left by a process that died holding it. */
const staleAfterMs = 5 * 60_000;
const giveUpAfterMs = 10 * 60_000;

/**
 * Runs `work` while holding the lock file `path` (created exclusively, removed after), so that
 * one process of many builds a shared file while the others wait for it.
 */
export async function withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (lockAgeMs(path) > staleAfterMs || !holderAlive(path)) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() - started > giveUpAfterMs) throw new Error(`Timed out waiting for ${path}`);
    await sleep(100);
  }
  try {
    return await work();
  } finally {
    unlinkSync(path);
  }
}

function lockAgeMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function holderAlive(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path, 'utf8'));
  } catch {
    return true;
  }
  // Written but not yet filled in by its holder: wait for it.
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
