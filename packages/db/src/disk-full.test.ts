import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './create-database.ts';
import type { DatabaseHandle } from './database.ts';
import {
  DatabaseDiskFullError,
  DISK_FULL_MESSAGE,
  isDiskFull,
  noteDiskFull,
  rootCauseOf,
} from './disk-full.ts';
import type { SmallDisk } from './small-disk.ts';
import { mountSmallDisk } from './small-disk.ts';

/** Issue 19 item 13: a full disk is recognised wherever in an error's causes it is said. */
describe('isDiskFull', () => {
  const wrapped = (inner: object) =>
    Object.assign(new Error('Failed query: insert ...'), { cause: inner });
  it.each([
    ['SQLSTATE 53100', Object.assign(new Error('could not extend file'), { code: '53100' }), true],
    ['53100 under the ORM', wrapped(Object.assign(new Error('x'), { code: '53100' })), true],
    [
      'ENOSPC of node fs',
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
      true,
    ],
    ['ENOSPC two levels down', wrapped(wrapped({ code: 'ENOSPC' })), true],
    ['another SQLSTATE', wrapped(Object.assign(new Error('x'), { code: '23505' })), false],
    ['a connection error', Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), false],
    ['no code', new Error('Aborted()'), false],
  ])('%s: %s', (_name, error, expected) => {
    expect(isDiskFull(error)).toBe(expected);
  });
});

describe('the embedded database on a full disk', () => {
  let disk: SmallDisk;
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    disk = await mountSmallDisk(48);
  });
  afterAll(async () => {
    await handle?.close().catch(() => {});
    await disk.destroy();
  });

  it(
    'fails a write with SQLSTATE 53100, named in the log-safe root cause without values',
    { timeout: 120_000 },
    async () => {
      handle = await openPglite(join(disk.folder, 'data'));
      expect(await handle.diskFull()).toBeUndefined();
      await handle.db.execute(sql`create table filler (x text)`);
      let failure: unknown;
      const secret = 'a-bound-value-never-logged';
      try {
        // Bounded: the disk is 48 MiB and every round writes about 1.6 MiB.
        for (let round = 0; round < 200; round++) {
          await handle.db.execute(
            sql`insert into filler select ${secret} || repeat(md5(random()::text), 100) from generate_series(1, 500)`,
          );
        }
      } catch (error) {
        failure = error;
      }
      expect(isDiskFull(failure)).toBe(true);
      const cause = rootCauseOf(failure);
      expect(cause.code).toBe('53100');
      expect(cause.message).toMatch(/No space left on device/);
      expect(cause.message).not.toContain(secret);
      await disk.fill();
      expect(await handle.diskFull()).toMatch(new RegExp(`^${DISK_FULL_MESSAGE}`));
      await handle.close();
      handle = undefined;
    },
  );

  it('refuses to open on a full disk with DatabaseDiskFullError, and leaves no lock file', async () => {
    const opening = openPglite(join(disk.folder, 'data'));
    await expect(opening).rejects.toBeInstanceOf(DatabaseDiskFullError);
    await expect(opening).rejects.toThrow(DISK_FULL_MESSAGE);
    expect(existsSync(join(disk.folder, 'data', 'checkline.lock'))).toBe(false);
  });

  it("refuses when only the engine's own folder is full, the lock's folder having room", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'checkline-disk-full-'));
    const engineDisk = await mountSmallDisk(1, join(dataDir, 'pglite'));
    try {
      await engineDisk.fill();
      const opening = openPglite(dataDir);
      await expect(opening).rejects.toBeInstanceOf(DatabaseDiskFullError);
      const error = (await opening.catch((caught: unknown) => caught)) as Error;
      expect(error.message).toContain(join(dataDir, 'pglite'));
    } finally {
      await engineDisk.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a disk-full failure noted for readiness', () => {
  it('keeps the databases open at the time not ready, not one opened afterwards', async () => {
    const before = await openPglite('memory://');
    try {
      const failure = Object.assign(new Error('could not extend file'), { code: '53100' });
      expect(noteDiskFull(failure)).toBe(true);
      expect(await before.diskFull()).toBe(DISK_FULL_MESSAGE);
      const after = await openPglite('memory://');
      try {
        expect(await after.diskFull()).toBeUndefined();
      } finally {
        await after.close();
      }
    } finally {
      await before.close();
    }
  });
});
