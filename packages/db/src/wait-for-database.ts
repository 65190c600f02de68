import { isDatabaseUnavailable } from './errors.ts';

export interface WaitForDatabaseOptions {
  /** Says what is being waited for; called before each pause. */
  log: (fields: { attempt: number; retryInMs: number; reason: string }) => void;
  /** First pause in milliseconds, doubled after each failure. Default 500. */
  initialDelayMs?: number;
  /** Longest pause in milliseconds. Default 10 000. */
  maxDelayMs?: number;
  /** Stops waiting (for example on SIGTERM): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Resolves once `ping` succeeds. While it fails because the database cannot be reached, waits
 * with exponential back-off and tries again, for as long as it takes; any other failure (a wrong
 * password, a missing database) is thrown at once, since waiting will not mend it.
 */
export async function waitForDatabase(
  ping: () => Promise<void>,
  options: WaitForDatabaseOptions,
): Promise<void> {
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  let delay = options.initialDelayMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      await ping();
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      options.log({ attempt, retryInMs: delay, reason: describe(error) });
    }
    await pause(delay, options.signal);
    delay = Math.min(delay * 2, maxDelayMs);
  }
}

/** The innermost cause says it best (`connect ECONNREFUSED 127.0.0.1:5432`). */
function describe(error: unknown): string {
  let innermost = error;
  for (let depth = 0; depth < 10; depth++) {
    const cause = (innermost as { cause?: unknown } | null)?.cause;
    if (!(cause instanceof Error)) break;
    innermost = cause;
  }
  const code = (innermost as { code?: unknown }).code;
  const message = innermost instanceof Error ? innermost.message : String(innermost);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
