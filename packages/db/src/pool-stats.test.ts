import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './database.ts';
import { createEmptyTestDatabase } from './testing.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createEmptyTestDatabase();
});
afterAll(() => handle.close());

const stats = () => handle.pool!();

describe('pool statistics of a database handle', () => {
  it('counts a transaction in flight while it runs and its acquire once it began', async () => {
    const before = stats();
    let inside = before;
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      inside = stats();
    });
    const after = stats();
    expect(inside.inFlight).toBe(before.inFlight + 1);
    expect(after.inFlight).toBe(before.inFlight);
    expect(after.acquires).toBe(before.acquires + 1);
    expect(after.acquireSeconds).toBeGreaterThan(before.acquireSeconds);
  });

  it('counts statements sent past the pool size while they wait, and none once settled', async () => {
    const { size } = stats();
    // Every connection held by a transaction until the statements are sent, so none can run.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = Array.from({ length: size }, () =>
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await held;
      }),
    );
    const running = Array.from({ length: 3 }, () =>
      handle.db.execute(sql`select 1`).then(() => {}),
    );
    try {
      // Opening every connection takes a while on a loaded machine: wait, but not forever.
      await expect.poll(() => stats().inFlight, { timeout: 30_000 }).toBe(size + 3);
    } finally {
      release();
      await Promise.all([...holding, ...running]);
    }
    expect(stats().inFlight).toBe(0);
  });

  it('settles the count of a failing statement too', async () => {
    await expect(handle.db.execute(sql`select * from no_such_table`)).rejects.toThrow();
    expect(stats().inFlight).toBe(0);
  });
});
