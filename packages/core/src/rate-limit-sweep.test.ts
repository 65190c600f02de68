import type { DatabaseHandle } from '@checkline/db';
import { rateLimits } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedRateLimiter } from './rate-limit.ts';
import { sweepExpiredRateLimits } from './rate-limit-sweep.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('shared rate limits', () => {
  it('leave no timer behind a limiter (it would outlive the server that made it)', () => {
    vi.useFakeTimers();
    const limiter = sharedRateLimiter(
      { points: 5, durationSeconds: 60 },
      'sweep-test',
      database.db,
    );
    expect(limiter).toBeDefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('are swept an hour after they expired, and not before', async () => {
    const now = new Date('2030-01-01T12:00:00.000Z');
    const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    await database.db.insert(rateLimits).values([
      { key: 'long-gone', points: 3, expire: ago(61) },
      { key: 'recently-expired', points: 3, expire: ago(59) },
      { key: 'current', points: 3, expire: new Date(now.getTime() + 60_000) },
      { key: 'never-expires', points: 3, expire: null },
    ]);
    expect(await sweepExpiredRateLimits(database.db, now)).toBe(1);
    const left = await database.db.select({ key: rateLimits.key }).from(rateLimits);
    expect(left.map(({ key }) => key).sort()).toEqual([
      'current',
      'never-expires',
      'recently-expired',
    ]);
  });
});
