import type { Database } from '@checkline/db';
import type { RequestContext } from './context.ts';
import { enqueueEvent } from './event-outbox.ts';

/** What changes in a context once it runs inside a transaction. */
export type TransactionContext = Pick<
  RequestContext,
  'db' | 'inTransaction' | 'emit' | 'afterCommit'
>;

/**
 * Runs `work` in a transaction of `context.db`, or joins the caller's when `context` is in one.
 * Events it emits are written to the outbox in that transaction (a rollback discards them; one
 * that cannot be written rolls the change back) and dispatched once it has committed;
 * after-commit tasks are handed to `context` then, and dropped on rollback.
 */
export async function runInTransaction<R>(
  context: RequestContext,
  work: (inner: TransactionContext) => Promise<R>,
): Promise<R> {
  if (context.inTransaction) {
    const { db, emit, afterCommit } = context;
    return work({ db, inTransaction: true, emit, afterCommit });
  }
  const written: Promise<string>[] = [];
  const tasks: (() => void | Promise<void>)[] = [];
  const result = await context.db.transaction(async (tx) => {
    const db: Database = tx;
    const inner: TransactionContext = {
      db,
      inTransaction: true,
      emit(type, payload) {
        const row = enqueueEvent(db, type, payload);
        // Awaited below; this only keeps an early failure from counting as unhandled.
        row.catch(() => {});
        written.push(row);
      },
      afterCommit: (task) => void tasks.push(task),
    };
    try {
      const value = await work(inner);
      await Promise.all(written);
      return value;
    } finally {
      await Promise.allSettled(written);
    }
  });
  context.dispatchEvents(await Promise.all(written));
  for (const task of tasks) context.afterCommit(task);
  return result;
}
