import { describe, expect, it } from 'vitest';
import { createOutageLog } from './outage-log.ts';

function recordingLogger() {
  const entries: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) =>
    void entries.push({ level, message, fields });
  return { entries, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
  code: 'ECONNREFUSED',
});
const wrapped = Object.assign(new Error('Failed query: select 1'), { cause: refused });

describe('the outage log of a background worker', () => {
  it('logs an unreachable database once per outage, and its end once', () => {
    const { entries, logger } = recordingLogger();
    const outage = createOutageLog(logger, 'ticker');
    for (let tick = 0; tick < 5; tick++) outage.failed(tick % 2 ? wrapped : refused, 'tick failed');
    outage.succeeded();
    outage.succeeded();
    outage.failed(refused, 'tick failed');
    expect(entries.map((entry) => [entry.level, entry.message])).toEqual([
      ['warn', 'database unavailable: ticker paused until it answers'],
      ['info', 'database reachable again: ticker resumed'],
      ['warn', 'database unavailable: ticker paused until it answers'],
    ]);
  });

  it('logs every other failure each time', () => {
    const { entries, logger } = recordingLogger();
    const outage = createOutageLog(logger, 'ticker');
    const broken = new Error('relation "x" does not exist');
    outage.failed(broken, 'tick failed', { id: 1 });
    outage.failed(broken, 'tick failed', { id: 2 });
    expect(entries).toEqual([
      { level: 'error', message: 'tick failed', fields: { err: broken, id: 1 } },
      { level: 'error', message: 'tick failed', fields: { err: broken, id: 2 } },
    ]);
  });
});
