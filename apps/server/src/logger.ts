import pino from 'pino';
import type { Logger } from '@checkline/core';

/** JSON lines on stdout; secrets in well-known places are redacted as a second line of defence. */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
): Logger & pino.Logger {
  return pino(
    {
      level,
      base: { service: 'checkline' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
