import type { Database, DatabaseHandle } from '@checkline/db';
import { rateLimits } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { ORPCError } from '@orpc/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LeasedBudget, memoryBudget, sharedBudget } from './leased-budget.ts';
import { sharedRateLimiter } from './rate-limit.ts';

let database: DatabaseHandle;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
beforeEach(async () => {
  await db.delete(rateLimits);
});
afterAll(async () => {
  await database.close();
});

/** Spends one point of `key` per call, in turn over `budgets`; answers how many were allowed. */
async function spendInTurn(budgets: LeasedBudget[], key: string, calls: number) {
  let allowed = 0;
  const refusals: ORPCError<string, unknown>[] = [];
  for (let call = 0; call < calls; call++) {
    try {
      await budgets[call % budgets.length]!.consume(key);
      allowed++;
    } catch (error) {
      if (!(error instanceof ORPCError)) throw error;
      refusals.push(error);
    }
  }
  return { allowed, refusals };
}

let setUps = 0;

/**
 * Three processes' budgets on one database, counting how often each asks the database. Each set
 * counts under a prefix of its own: the budgets of an earlier test may still be taking a chunk in
 * the background, and that chunk must not land on this test's count (one of 30 points once left
 * 170 of 200 to the test after it).
 */
function threeProcesses(points: number, durationSeconds = 60) {
  const asked = [0, 0, 0];
  const prefix = `test-${++setUps}`;
  const budgets = asked.map((_, index) => {
    const store = sharedRateLimiter({ points, durationSeconds }, prefix, db)!;
    const counted = {
      penalty: (key: string, spent?: number) => {
        asked[index]!++;
        return store.penalty(key, spent);
      },
    };
    return new LeasedBudget(counted, { points, durationSeconds }, Math.floor(points / 100));
  });
  return { budgets, asked };
}

describe('a budget leased from the database', () => {
  it('never allows more than the budget across processes, nor much less', async () => {
    const { budgets } = threeProcesses(600);
    const { allowed, refusals } = await spendInTurn(budgets, 'key', 900);
    expect(allowed).toBeLessThanOrEqual(600);
    // Each of three holds at most 1.5 chunks (of 6) unspent when the budget runs out.
    expect(allowed).toBeGreaterThanOrEqual(600 - 3 * 9);
    expect(refusals).toHaveLength(900 - allowed);
    expect(refusals[0]).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect((refusals[0]!.data as { retryAfter: number }).retryAfter).toBeGreaterThan(0);
    // The last calls all find it spent, whichever process they reach.
    expect(refusals.length).toBeGreaterThanOrEqual(300);
  });

  it('asks the database about once a chunk, not once a call', async () => {
    const { budgets, asked } = threeProcesses(3_000);
    const { allowed } = await spendInTurn(budgets, 'key', 1_500);
    expect(allowed).toBe(1_500);
    // 500 calls a process in chunks of 30: some 17 leases each, not 500.
    for (const count of asked) expect(count).toBeLessThan(30);
  });

  it('holds under concurrent calls in one process', async () => {
    const { budgets } = threeProcesses(200);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 400 }, (_, index) => budgets[index % 3]!.consume('key')),
    );
    const allowed = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    expect(allowed).toBeLessThanOrEqual(200);
    expect(allowed).toBeGreaterThanOrEqual(200 - 3 * 3);
  });

  it('counts each key on its own', async () => {
    const { budgets } = threeProcesses(100);
    expect((await spendInTurn(budgets, 'a', 150)).allowed).toBeLessThanOrEqual(100);
    expect((await spendInTurn(budgets, 'b', 50)).allowed).toBe(50);
  });

  it('gives the budget again in the next window', async () => {
    // A one-second window: on a loaded machine spending may itself cross into a new window, so
    // spend until the first refusal, then wait out the window that refused.
    const { budgets } = threeProcesses(100, 1);
    let refused = false;
    for (let call = 0; call < 1_000 && !refused; call++) {
      refused = await budgets[call % budgets.length]!.consume('a').then(
        () => false,
        (error: unknown) => error instanceof ORPCError,
      );
    }
    expect(refused, 'the budget ran out').toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await spendInTurn(budgets, 'a', 50)).allowed).toBe(50);
  });

  it('stores its count under the prefix, once for several processes', async () => {
    const budgets = [1, 2].map(() =>
      sharedBudget({ points: 10, durationSeconds: 60 }, 'shared-prefix', db),
    );
    const { allowed } = await spendInTurn(budgets as LeasedBudget[], 'app-1', 15);
    expect(allowed).toBe(10);
    // Budgets of the tests before may still be fetching a chunk in the background: their rows
    // (other prefixes) can land after the table was emptied.
    const rows = (await db.select().from(rateLimits)).filter((row) =>
      row.key.startsWith('shared-prefix'),
    );
    expect(rows.map((row) => row.key)).toEqual(['shared-prefix:app-1']);
    expect(rows[0]!.points).toBeGreaterThanOrEqual(10);
  });

  it('refuses a spend larger than the whole budget without counting it', async () => {
    const budget = sharedBudget({ points: 10, durationSeconds: 60 }, 'large', db)!;
    await expect(budget.consume('key', 11)).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(await db.select().from(rateLimits)).toEqual([]);
    await budget.consume('key', 10);
    await expect(budget.consume('key', 1)).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  });
});

describe('a budget in memory', () => {
  it('counts every call as it comes', async () => {
    const budget = memoryBudget({ points: 5, durationSeconds: 60 }, 'memory')!;
    const { allowed } = await spendInTurn([budget], 'key', 8);
    expect(allowed).toBe(5);
  });

  it('is absent when the limit is off', () => {
    expect(memoryBudget(false, 'off')).toBeUndefined();
    expect(sharedBudget(false, 'off', db)).toBeUndefined();
  });
});
