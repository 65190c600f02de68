/**
 * The clock of one run's timeout, which stands still while the run waits in our own queues (for
 * a connection slot): the timeout measures the target, not us. `signal` aborts with a
 * `TimeoutError` once `timeoutMs` of target time has passed, or with the reason of `cancel`;
 * `overdue` resolves `graceMs` later, for a type that ignores its signal. `release` when done.
 */
export function createRunClock(cancel: AbortSignal, timeoutMs: number, graceMs: number) {
  const controller = new AbortController();
  let spentMs = 0;
  let runningSince: number | undefined;
  let timers: NodeJS.Timeout[] = [];
  let markOverdue = () => {};
  const overdue = new Promise<void>((resolve) => (markOverdue = resolve));
  const onCancel = () => controller.abort(cancel.reason);

  function resume() {
    if (runningSince !== undefined || controller.signal.aborted) return;
    runningSince = performance.now();
    const left = timeoutMs - spentMs;
    timers = [
      setTimeout(
        () => controller.abort(new DOMException(`Timed out after ${timeoutMs} ms`, 'TimeoutError')),
        Math.max(0, left),
      ),
      setTimeout(markOverdue, Math.max(0, left + graceMs)),
    ];
  }

  function pause() {
    if (runningSince === undefined) return;
    spentMs += performance.now() - runningSince;
    runningSince = undefined;
    for (const timer of timers) clearTimeout(timer);
    timers = [];
  }

  if (cancel.aborted) onCancel();
  else cancel.addEventListener('abort', onCancel, { once: true });
  resume();

  return {
    signal: controller.signal,
    overdue,
    pause,
    resume,
    release() {
      pause();
      cancel.removeEventListener('abort', onCancel);
    },
  };
}
