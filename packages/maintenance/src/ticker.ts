export interface TickerOptions {
  /** Milliseconds between runs; the first run comes one interval after `start`. */
  intervalMs: number;
  /** Receives what a run threw; the ticker keeps going. */
  onError(error: unknown): void;
}

export interface Ticker {
  start(): void;
  /** Stops the timer and waits for a run in flight. */
  stop(): Promise<void>;
}

/** Runs `task` every `intervalMs`, skipping a beat rather than overlapping a slow run. */
export function createTicker(task: () => Promise<void>, options: TickerOptions): Ticker {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | undefined;
  const run = function runTickerTask() {
    if (running) return;
    running = task()
      .catch(options.onError)
      .finally(() => {
        running = undefined;
      });
  };
  return {
    start() {
      if (timer) return;
      timer = setInterval(run, options.intervalMs);
      // Background work must not keep the process alive on its own.
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
