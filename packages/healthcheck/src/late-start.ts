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
