/**
 * What every generated-client scenario is handed and answers. The scenarios (one per generator)
 * are copied beside the code their generator wrote and type-checked there, then run.
 */
export interface ScenarioInput {
  baseUrl: string;
  /** An application key allowed to manage the catalog and health checks. */
  key: string;
  /** A signed-in person's session: the notification stream is a per-person stream. */
  reader: { cookie: string; origin: string };
  /** Called once the stream has answered; sends the reader one notification. */
  notify(): Promise<void>;
  /** Aborts the stream (and everything else) when the test's time is up. */
  signal: AbortSignal;
  /** Names the systems this run creates, so paging can find exactly them. */
  tag: string;
}

export interface ScenarioOutcome {
  checkType: string;
  statusOfSystem: string;
  pagedNames: string[];
  pages: number;
  eventKinds: string[];
}

export const scenarioSystemNames = ['first', 'second', 'third'] as const;
