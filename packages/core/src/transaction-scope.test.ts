import type { DatabaseHandle } from '@checkline/db';
import { eventOutbox } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestContext } from './context.ts';
import { defineEvent } from './events.ts';
import { createRuntime } from './runtime.ts';
import { silentLogger } from './logger.ts';
import { testPrincipal } from './testing.ts';
import { runInTransaction } from './transaction-scope.ts';

const noted = defineEvent<{ n: number }>('probe.noted');
let database: DatabaseHandle;
let runtime: ReturnType<typeof createRuntime>;
const seen: number[] = [];

/** A root context whose hand-overs are recorded instead of run. */
function recordingContext() {
  const dispatched: string[][] = [];
  const tasks: string[] = [];
  const context: RequestContext = {
    ...runtime.contextFor(testPrincipal([])),
    dispatchEvents: (ids) => void dispatched.push([...ids]),
    afterCommit: () => void tasks.push('task'),
  };
  return { context, dispatched, tasks };
}

beforeAll(async () => {
  database = await createTestDatabase();
  runtime = createRuntime([], database.db, silentLogger);
  runtime.events.subscribe(noted, ({ n }) => void seen.push(n));
});
beforeEach(async () => {
  seen.length = 0;
  await database.db.delete(eventOutbox);
});
afterAll(async () => {
  await runtime.events.stop();
  await database.close();
});

describe('runInTransaction works', () => {
  it('writes emitted events in the transaction and hands their ids over only after commit', async () => {
    const { context, dispatched, tasks } = recordingContext();
    const rowsSeenInside = await runInTransaction(context, async (inner) => {
      inner.emit(noted, { n: 1 });
      inner.emit(noted, { n: 2 });
      inner.afterCommit(() => {});
      expect(dispatched).toEqual([]);
      expect(tasks).toEqual([]);
      return (await inner.db.select().from(eventOutbox)).length;
    });
    expect(rowsSeenInside).toBe(2);
    const rows = await database.db.select().from(eventOutbox);
    expect(dispatched).toEqual([expect.arrayContaining(rows.map((row) => row.id))]);
    expect(tasks).toEqual(['task']);
  });

  it('joins the caller’s transaction instead of opening its own, leaving the hand-over to it', async () => {
    const { context, dispatched } = recordingContext();
    const outerEmits: unknown[] = [];
    await database.db.transaction(async (tx) => {
      const inTransaction: RequestContext = {
        ...context,
        db: tx,
        inTransaction: true,
        emit: (_type, payload) => void outerEmits.push(payload),
      };
      await runInTransaction(inTransaction, async (inner) => {
        expect(inner.db).toBe(tx);
        inner.emit(noted, { n: 3 });
      });
    });
    expect(outerEmits).toEqual([{ n: 3 }]);
    expect(dispatched).toEqual([]);
  });

  it('dispatches through the runtime once committed: subscribers see the event', async () => {
    const context = runtime.contextFor(testPrincipal([]));
    await runInTransaction(context, async (inner) => inner.emit(noted, { n: 4 }));
    await runtime.events.settled();
    expect(seen).toEqual([4]);
  });
});

describe('runInTransaction rejects bad input', () => {
  it('writes and dispatches nothing when the work throws', async () => {
    const { context, dispatched, tasks } = recordingContext();
    await expect(
      runInTransaction(context, async (inner) => {
        inner.emit(noted, { n: 5 });
        inner.afterCommit(() => {});
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    expect(await database.db.select().from(eventOutbox)).toEqual([]);
    expect(dispatched).toEqual([]);
    expect(tasks).toEqual([]);
  });
});
