/**
 * A run that waited in our own queue past the time it had to start by: the scheduler gives it
 * back and reports it late; it is never a failure of the target.
 */
export class LateStartError extends Error {
  constructor(readonly waitedMs: number) {
    super(`Could not start within ${waitedMs} ms: every connection slot of the origin was busy`);
    this.name = 'LateStartError';
  }
}

/** What a late run waited for: its host's or owner's turn in our queue, or a connection slot. */
export type LateWait =
  { waitedFor: 'turn' } | { waitedFor: 'connection slot'; queueWaitMs: number };
