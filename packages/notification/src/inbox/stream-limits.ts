/** How many inbox streams one server process holds open. */
export interface InboxStreamLimits {
  /** Streams one user may hold open; opening one more closes that user's oldest. */
  perUser: number;
  /** Streams of all users together; past it a new stream is refused (TOO_MANY_REQUESTS). */
  perProcess: number;
}

/** Twenty tabs a person; ten thousand streams a process, well under its open-file limit. */
export const defaultInboxStreamLimits: InboxStreamLimits = { perUser: 20, perProcess: 10_000 };

/** What a refused stream is told to wait before trying again. */
export const STREAM_RETRY_AFTER_MS = 30_000;

export function resolveInboxStreamLimits(
  limits: Partial<InboxStreamLimits> = {},
): InboxStreamLimits {
  const resolved = { ...defaultInboxStreamLimits, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (!(Number.isInteger(value) && value >= 1)) {
      throw new Error(`inboxStreams.${name} must be a positive integer`);
    }
  }
  return resolved;
}
