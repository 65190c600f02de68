import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freeBytes } from './disk-full.ts';

const run = promisify(execFile);

/** A file system of a test's own, a few MiB large, that the test can fill to the last byte. */
export interface SmallDisk {
  /** Where it is mounted. */
  folder: string;
  /** Writes filler files until nothing more fits (never outside `folder`). */
  fill(): Promise<void>;
  /** Deletes the filler, giving the room back. */
  empty(): void;
  /** Unmounts it and deletes the mount point. */
  destroy(): Promise<void>;
}

/**
 * Mounts a tmpfs of `sizeMiB` on a fresh folder under the system's temporary folder (at
 * `mountPoint` when given, which is created). Needs root (the test machines run as root); it
 * fails, never skips, without it.
 */
export async function mountSmallDisk(sizeMiB: number, mountPoint?: string): Promise<SmallDisk> {
  const folder = mountPoint ?? mkdtempSync(join(tmpdir(), 'checkline-small-disk-'));
  mkdirSync(folder, { recursive: true });
  await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}M`, 'tmpfs', folder]);
  const fillerFolder = join(folder, 'filler');
  return {
    folder,
    async fill() {
      mkdirSync(fillerFolder, { recursive: true });
      const chunk = Buffer.alloc(64 * 1024);
      for (let index = 0, size = chunk.length; size > 0; index++) {
        try {
          writeFileSync(join(fillerFolder, String(index)), chunk.subarray(0, size));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          rmSync(join(fillerFolder, String(index)), { force: true });
          size = Math.floor(size / 2);
        }
      }
      const left = await freeBytes(folder);
      if (left === undefined || left >= 4096)
        throw new Error(`the small disk still has ${left} bytes free`);
    },
    empty() {
      rmSync(fillerFolder, { recursive: true, force: true });
    },
    async destroy() {
      // Lazily: an engine that failed to start may hold files open until this process ends.
      await run('umount', ['--lazy', folder]);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
