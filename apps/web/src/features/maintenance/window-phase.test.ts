import { describe, expect, it } from 'vitest';
import { localToInstant, windowPhase } from './window-phase.ts';

describe('a maintenance window at a moment', () => {
  const window = { startAt: '2026-03-01T10:00:00.000Z', endAt: '2026-03-01T12:00:00.000Z' };
  it.each([
    ['2026-03-01T09:59:59.000Z', 'upcoming'],
    ['2026-03-01T10:00:00.000Z', 'active'],
    ['2026-03-01T11:59:59.000Z', 'active'],
    ['2026-03-01T12:00:00.000Z', 'past'],
  ])('at %s is %s', (now, phase) => {
    expect(windowPhase(window, new Date(now))).toBe(phase);
  });
});

describe('a picked date-time', () => {
  it('is read in the browser time zone and sent as an instant', () => {
    const picked = '2026-03-01 10:30:00';
    expect(localToInstant(picked)).toBe(new Date(2026, 2, 1, 10, 30, 0).toISOString());
  });
  it.each([null, '', 'not a date'])('%o is no instant', (value) => {
    expect(localToInstant(value)).toBeNull();
  });
});
