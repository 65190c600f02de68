import type { Database } from '@checkline/db';
import type { ClaimOutcome } from './claims.ts';
import { recordOutcomes } from './claims.ts';

/** At most this many outcomes per statement. */
const MAX_PER_FLUSH = 500;

/**
 * Gathers the outcomes of sends finishing close together and records them in one statement,
 * one statement in flight at a time (under load the next one gathers what finished meanwhile).
 * Each caller learns whether its own outcome was recorded (its claim still held).
 */
export function createOutcomeRecorder(db: Database, now: () => Date) {
  let waiting: {
    item: ClaimOutcome;
    settle: (recorded: boolean) => void;
    fail: (error: unknown) => void;
  }[] = [];
  let flushing = false;
  let scheduled = false;

  async function flush() {
    scheduled = false;
    if (flushing || waiting.length === 0) return;
    flushing = true;
    const batch = waiting.slice(0, MAX_PER_FLUSH);
    waiting = waiting.slice(batch.length);
    try {
      const recorded = await recordOutcomes(
        db,
        batch.map((entry) => entry.item),
        now(),
      );
      for (const entry of batch) entry.settle(recorded.has(entry.item.claim.id));
    } catch (error) {
      for (const entry of batch) entry.fail(error);
    } finally {
      flushing = false;
      if (waiting.length > 0) schedule();
    }
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    // After the current round of I/O callbacks: sends finishing together share the statement.
    setImmediate(() => void flush());
  }

  return {
    /** Resolves true once recorded, false when the claim no longer held the row. */
    record(item: ClaimOutcome): Promise<boolean> {
      return new Promise((settle, fail) => {
        waiting.push({ item, settle, fail });
        schedule();
      });
    },
  };
}
