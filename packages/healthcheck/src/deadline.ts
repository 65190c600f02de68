/**
 * A signal aborted when `parent` aborts (with its reason) or after `timeoutMs` (with a
 * `TimeoutError`). Call `release` when done: unlike `AbortSignal.any`, it leaves nothing attached
 * to a long-lived parent such as a scheduler's shutdown signal (nodejs/node#55351).
 */
export function withDeadline(parent: AbortSignal, timeoutMs: number) {
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent.reason);
  const timer = setTimeout(
    () => controller.abort(new DOMException(`Timed out after ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  if (parent.aborted) onParentAbort();
  else parent.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer);
      parent.removeEventListener('abort', onParentAbort);
    },
  };
}

/** True for the reason of a deadline or `AbortSignal.timeout`, as against a cancellation. */
export const isTimeout = (reason: unknown) =>
  reason instanceof DOMException && reason.name === 'TimeoutError';
