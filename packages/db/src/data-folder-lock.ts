import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The data folder is held by another live process. */
export class DataFolderLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly holderPid: number,
  ) {
    super(
      `The data folder ${folder} is in use by process ${holderPid}: two servers on one embedded ` +
        `database would corrupt it. Stop that process, or give this one another DATA_DIR.`,
    );
    this.name = 'DataFolderLockedError';
  }
}

export interface DataFolderLock {
  lockFile: string;
  /** Removes the lock file if it is still ours. Safe to call more than once. */
  release(): void;
}

const lockFileName = 'checkline.lock';
/** Lock files this process holds: opening one folder twice in one process is refused too. */
const held = new Set<string>();

/**
 * Takes the data folder for this process: creates `checkline.lock` holding our PID, atomically
 * (`wx`). A lock file whose process is gone is stale and taken over; one whose process lives is
 * refused with `DataFolderLockedError`. The lock is also dropped when the process exits.
 */
export function lockDataFolder(folder: string): DataFolderLock {
  mkdirSync(folder, { recursive: true });
  const lockFile = join(folder, lockFileName);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const descriptor = openSync(lockFile, 'wx');
      try {
        writeSync(descriptor, `${process.pid}\n`);
      } catch (error) {
        // A full disk: an empty lock file would be taken for a stale one by the next start.
        closeSync(descriptor);
        unlinkSync(lockFile);
        throw error;
      }
      closeSync(descriptor);
      held.add(lockFile);
      const release = () => {
        process.off('exit', release);
        if (!held.delete(lockFile)) return;
        if (holderOf(lockFile) === process.pid) unlinkSync(lockFile);
      };
      process.on('exit', release);
      return { lockFile, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(lockFile);
    const ours = holder === process.pid;
    if (holder !== undefined && (ours ? held.has(lockFile) : isAlive(holder))) {
      throw new DataFolderLockedError(folder, holder);
    }
    // Stale: its process is gone, the file is unreadable, or it names this PID from an earlier
    // life (a container's PID 1 after a restart). Take it over.
    try {
      unlinkSync(lockFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`could not lock the data folder ${folder}: its lock file keeps reappearing`);
}

function holderOf(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
