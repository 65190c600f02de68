import pino from 'pino';
import type { Logger } from '@checkline/core';
import { redactDatabaseError } from '@checkline/db';

/**
 * JSON lines on stdout. Every logged `err` goes through `redactDatabaseError`, the one place
 * that keeps SQL parameters out of the log; secrets in well-known places are redacted as a
 * second line of defence.
 */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
): Logger & pino.Logger {
  return pino(
    {
      level,
      base: { service: 'checkline' },
      serializers: {
        err: (error: unknown) => pino.stdSerializers.err(redactDatabaseError(error) as Error),
      },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
