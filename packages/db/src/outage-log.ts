import { noteDiskFull } from './disk-full.ts';
import { isDatabaseUnavailable } from './errors.ts';

type Log = (fields: Record<string, unknown>, message: string) => void;

/** The part of a logger an outage log needs (pino's and core's `Logger` fit). */
export interface OutageLogger {
  info: Log;
  warn: Log;
  error: Log;
}

export interface OutageLog {
  /** Logs `error`; a database that cannot be reached is logged once per outage, not per try. */
  failed(error: unknown, message: string, fields?: Record<string, unknown>): void;
  /** Call after a round that reached the database: ends an outage, saying so once. */
  succeeded(): void;
}

/**
 * The log of a background worker that polls the database. While the database is away the worker
 * keeps its schedule (each round fails fast and doubles as the probe) but logs the outage once,
 * and once more when the database answers again.
 */
export function createOutageLog(logger: OutageLogger, worker: string): OutageLog {
  let down = false;
  return {
    failed(error, message, fields = {}) {
      const diskFull = noteDiskFull(error);
      if (!diskFull && !isDatabaseUnavailable(error)) {
        logger.error({ err: error, ...fields }, message);
        return;
      }
      if (down) return;
      down = true;
      logger.warn(
        { err: error, worker },
        diskFull
          ? `database disk full: ${worker} paused until it can write`
          : `database unavailable: ${worker} paused until it answers`,
      );
    },
    succeeded() {
      if (!down) return;
      down = false;
      logger.info({ worker }, `database reachable again: ${worker} resumed`);
    },
  };
}
