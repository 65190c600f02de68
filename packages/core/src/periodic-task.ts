import type { OutageLog } from '@checkline/db';
import { createOutageLog } from '@checkline/db';
import type { Logger } from './logger.ts';
import { singleFlight } from './single-flight.ts';

export interface PeriodicTaskOptions<T> {
  /** Names the work in logs (`maintenance ticker`). */
  name: string;
  /** Milliseconds between the end of one round and the start of the next. */
  intervalMs: number;
  /** Also run once right after `start` (default: first run one interval after it). */
  runAtStart?: boolean;
  logger: Logger;
  /** Shared with other work on the same database, so one outage is logged once (default: own). */
  outageLog?: OutageLog;
  /** One round of the work; what it throws is logged and the next round comes on schedule. */
  run(): Promise<T>;
  /**
   * After a round that succeeded, how long until the next one instead of `intervalMs` (a queue
   * with more due asks for 0; a scheduler asks for the time until its next due run).
   */
  nextDelayMs?(result: T): number | Promise<number>;
}

export interface PeriodicTask {
  start(): void;
  /** A round now, joining the one in flight if any. */
  runNow(): Promise<void>;
  /**
   * A round as soon as possible, without waiting for it: at once when idle, right after the round
   * in flight otherwise (new work may have arrived after that round looked).
   */
  wake(): void;
  /** Stops the timer and waits for the round in flight; no round starts afterwards. */
  stop(): Promise<void>;
}

/**
 * The one way to run periodic background work: at most one round at a time (a tick while a round
 * runs joins it rather than starting another), the next round timed from the end of the last, a
 * lost database logged once per outage and again when it answers (each round doubles as the probe,
 * so the work resumes by itself), and nothing after `stop`. The timer never keeps the process alive.
 */
export function createPeriodicTask<T>(options: PeriodicTaskOptions<T>): PeriodicTask {
  const outage = options.outageLog ?? createOutageLog(options.logger, options.name);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let started = false;
  let stopped = false;
  let scheduledRunning = false;
  let wokenWhileRunning = false;

  const rounds = singleFlight(async (): Promise<number> => {
    try {
      const result = await options.run();
      outage.succeeded();
      return (await options.nextDelayMs?.(result)) ?? options.intervalMs;
    } catch (error) {
      outage.failed(error, `${options.name} failed; it runs again at the next interval`);
      return options.intervalMs;
    }
  });

  const schedule = (delayMs: number) => {
    clearTimeout(timer);
    if (stopped) return;
    // Detached on purpose: a timer cannot await, and each round reports its own failure.
    timer = setTimeout(() => void scheduledRound(), Math.max(0, delayMs));
    timer.unref();
  };

  const scheduledRound = async () => {
    timer = undefined;
    scheduledRunning = true;
    const delayMs = await rounds.run();
    scheduledRunning = false;
    const again = wokenWhileRunning;
    wokenWhileRunning = false;
    schedule(again ? 0 : delayMs);
  };

  return {
    start() {
      if (started || stopped) return;
      started = true;
      schedule(options.runAtStart ? 0 : options.intervalMs);
    },
    async runNow() {
      if (!stopped) await rounds.run();
    },
    wake() {
      if (!started || stopped) return;
      // A scheduled round counts as running until it has set its next timer, which would
      // otherwise replace the one set here.
      if (scheduledRunning) wokenWhileRunning = true;
      else if (!rounds.running) schedule(0);
      else void rounds.settled().then(() => schedule(0));
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await rounds.settled();
    },
  };
}
