import { describe, expect, it } from 'vitest';
import { historyPoints, rollupPoints } from './chart-range.ts';

describe('the points of a response-time chart', () => {
  it('keeps the runs since the range start, oldest first, failures marked', () => {
    const since = new Date('2030-01-01T11:00:00.000Z');
    const points = historyPoints(
      [
        { status: 'pass', latencyMs: 30, checkedAt: '2030-01-01T11:50:00.000Z' },
        { status: 'fail', latencyMs: 900, checkedAt: '2030-01-01T11:10:00.000Z' },
        { status: 'pass', latencyMs: 20, checkedAt: '2030-01-01T10:59:59.000Z' },
      ],
      since,
    );
    expect(points).toEqual([
      { at: '2030-01-01T11:10:00.000Z', latencyMs: 900, failed: true },
      { at: '2030-01-01T11:50:00.000Z', latencyMs: 30, failed: false },
    ]);
  });

  it('draws a bucket by its rounded mean latency and leaves out buckets without runs', () => {
    expect(
      rollupPoints([
        { bucketStart: '2030-01-01T10:00:00.000Z', failures: 0, meanLatencyMs: 40.4 },
        { bucketStart: '2030-01-01T11:00:00.000Z', failures: 0, meanLatencyMs: null },
        { bucketStart: '2030-01-01T12:00:00.000Z', failures: 2, meanLatencyMs: 120.6 },
      ]),
    ).toEqual([
      { at: '2030-01-01T10:00:00.000Z', latencyMs: 40, failed: false },
      { at: '2030-01-01T12:00:00.000Z', latencyMs: 121, failed: true },
    ]);
  });
});
