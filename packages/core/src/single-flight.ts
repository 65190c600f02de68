/** Work that runs at most once at a time: a call while it runs joins the running one. */
export interface SingleFlight<T> {
  run(): Promise<T>;
  /** Whether a run is in progress. */
  readonly running: boolean;
  /** Resolves once the run in progress, if any, has ended (whatever its outcome). */
  settled(): Promise<void>;
}

/** Background ticks (schedulers, workers, dispatchers): overlapping calls share one run of `work`. */
export function singleFlight<T>(work: () => Promise<T>): SingleFlight<T> {
  let current: Promise<T> | undefined;
  return {
    run() {
      current ??= work().finally(() => {
        current = undefined;
      });
      return current;
    },
    get running() {
      return current !== undefined;
    },
    async settled() {
      await current?.then(
        () => {},
        () => {},
      );
    },
  };
}
