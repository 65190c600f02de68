import type { Database } from '@checkline/db';
import { isDatabaseUnavailable } from '@checkline/db';
import type { ClaimOutcome } from './claims.ts';
import { recordOutcomes } from './claims.ts';

/** At most this many outcomes per statement. */
const MAX_PER_FLUSH = 500;
/**
 * Waits between tries while the database is away: doubling from the first to the last. The last
 * is short: an outcome is recorded within a second of the database coming back.
 */
const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 1_000;

interface Waiting {
  item: ClaimOutcome;
  settle: (recorded: boolean) => void;
  fail: (error: unknown) => void;
}

/**
 * Gathers the outcomes of sends finishing close together and records them in one statement,
 * one statement in flight at a time (under load the next one gathers what finished meanwhile).
 * Each caller learns whether its own outcome was recorded (its claim still held). While the
 * database is unreachable, outcomes wait and are tried again with backoff for as long as it
 * takes, never dropped: a dropped outcome is a send repeated once the lease lapses. Recording
 * late is safe, since it applies only while the claim's token still holds the row.
 */
export function createOutcomeRecorder(db: Database, now: () => Date) {
  let waiting: Waiting[] = [];
  let flushing = false;
  let scheduled = false;
  let retryDelayMs = FIRST_RETRY_MS;

  async function flush() {
    scheduled = false;
    if (flushing || waiting.length === 0) return;
    flushing = true;
    const batch = waiting.slice(0, MAX_PER_FLUSH);
    waiting = waiting.slice(batch.length);
    let retryIn: number | undefined;
    try {
      const recorded = await recordOutcomes(
        db,
        batch.map((entry) => entry.item),
        now(),
      );
      retryDelayMs = FIRST_RETRY_MS;
      for (const entry of batch) entry.settle(recorded.has(entry.item.claim.id));
    } catch (error) {
      if (!isDatabaseUnavailable(error)) {
        for (const entry of batch) entry.fail(error);
      } else {
        // Kept in front: they finished first, and each claim's outcome is recorded once.
        waiting = [...batch, ...waiting];
        retryIn = retryDelayMs;
        retryDelayMs = Math.min(retryDelayMs * 2, LONGEST_RETRY_MS);
      }
    } finally {
      flushing = false;
      if (retryIn !== undefined) {
        scheduled = true;
        setTimeout(() => void flush(), retryIn);
      } else if (waiting.length > 0) {
        schedule();
      }
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
