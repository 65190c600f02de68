import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { redactDatabaseError } from './errors.ts';

/** What a caller is told when the database cannot write for want of disk space. */
export const DISK_FULL_MESSAGE = "The database's disk is full";

/** Below this many free bytes the embedded database's folder counts as full. */
const LOW_DISK_BYTES = 1024 * 1024;

/** How long one disk-full failure keeps readiness down when the free space cannot be read. */
const REMEMBER_MS = 30_000;

/**
 * True when `error` or any error in its cause chain says the disk is full: PostgreSQL's
 * SQLSTATE 53100 (disk_full) or the ENOSPC of a file system call.
 */
export function isDiskFull(error: unknown): boolean {
  for (
    let current = error, depth = 0;
    current && typeof current === 'object' && depth < 10;
    depth++
  ) {
    const code = (current as { code?: unknown }).code;
    if (code === '53100' || code === 'ENOSPC') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The innermost error of the chain that carries a code (the database's own, under the ORM's
 * `Failed query` wrapper): its code and its message, without bound values, for a log line.
 */
export function rootCauseOf(error: unknown): { code?: string; message: string } {
  let found: { code?: string; message: string } | undefined;
  for (
    let current = error, depth = 0;
    current && typeof current === 'object' && depth < 10;
    depth++
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && current instanceof Error) {
      found = { code, message: (redactDatabaseError(current) as Error).message };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return found ?? { message: error instanceof Error ? error.message : String(error) };
}

let lastDiskFullAt: number | undefined;
let diskFullFailures = 0;

/** Notes a disk-full failure for readiness; true when `error` is one. */
export function noteDiskFull(error: unknown, now = Date.now()): boolean {
  if (!isDiskFull(error)) return false;
  lastDiskFullAt = now;
  diskFullFailures += 1;
  return true;
}

/**
 * How many disk-full failures this process has noted: a database remembers the number when it
 * opens, and only failures after it are its own (the memory is the process's, and a test worker
 * opens one database after another). A count, as a failure and an open can share a millisecond.
 */
export const diskFullFailuresSoFar = () => diskFullFailures;

/** True while a failure after the first `failuresBefore` was noted in the last 30 seconds. */
function diskFullRecently(failuresBefore: number, now = Date.now()): boolean {
  return (
    diskFullFailures > failuresBefore &&
    lastDiskFullAt !== undefined &&
    now - lastDiskFullAt < REMEMBER_MS
  );
}

/**
 * Free bytes for an unprivileged writer on the file system that holds `folder` (or would: the
 * nearest existing parent answers for a folder not yet made); undefined if unknown.
 */
export async function freeBytes(folder: string): Promise<number | undefined> {
  for (let current = resolve(folder); ; current = dirname(current)) {
    try {
      const stats = await statfs(current);
      return stats.bavail * stats.bsize;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || current === dirname(current)) {
        return undefined;
      }
    }
  }
}

/** The embedded database's folder has (next to) no room left: `DISK_FULL_MESSAGE` and where. */
export class DatabaseDiskFullError extends Error {
  readonly code = 'ENOSPC';
  constructor(
    readonly folder: string,
    readonly free: number | undefined,
    options?: ErrorOptions,
  ) {
    const room = free === undefined ? '' : `, ${free} bytes free`;
    super(`${DISK_FULL_MESSAGE} (${folder}${room})`, options);
    this.name = 'DatabaseDiskFullError';
  }
}

/**
 * `error` of opening the embedded database in `folder`, as a `DatabaseDiskFullError` when the
 * disk is why: said by the error itself, or by the folder's free space when the engine only
 * aborts (PGlite's WebAssembly build dies with a bare `Aborted()`).
 */
export async function diskFullOrSame(folder: string, error: unknown): Promise<unknown> {
  if (error instanceof DatabaseDiskFullError) return error;
  const free = await freeBytes(folder);
  if (isDiskFull(error) || (free !== undefined && free < LOW_DISK_BYTES)) {
    return new DatabaseDiskFullError(folder, free, { cause: error });
  }
  return error;
}

/**
 * Why the database (in `folder`, for the embedded one) opened after `failuresBefore` disk-full
 * failures cannot take writes now (`DISK_FULL_MESSAGE`...), or undefined.
 */
export async function diskFullReason(
  folder: string | undefined,
  failuresBefore: number,
): Promise<string | undefined> {
  const free = folder === undefined ? undefined : await freeBytes(folder);
  if (free !== undefined && free < LOW_DISK_BYTES)
    return `${DISK_FULL_MESSAGE} (${free} bytes free)`;
  return diskFullRecently(failuresBefore) ? DISK_FULL_MESSAGE : undefined;
}

/** Throws `DatabaseDiskFullError` when the file system of `folder` has almost no room left. */
export async function refuseFullDisk(folder: string): Promise<void> {
  const free = await freeBytes(folder);
  if (free !== undefined && free < LOW_DISK_BYTES) throw new DatabaseDiskFullError(folder, free);
}
