import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger.ts';

/** A real pino logger whose JSON lines are kept in memory, so tests can search them. */
export function createMemoryLogger(level = 'debug') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger(level, stream), lines };
}
