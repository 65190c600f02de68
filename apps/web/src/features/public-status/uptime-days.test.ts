import { describe, expect, it } from 'vitest';
import { uptimeDays } from './uptime-days.ts';

describe('uptimeDays', () => {
  it('places each figure on its UTC day and ends on the day the answer was made', () => {
    const { days, mean } = uptimeDays(
      { firstDay: '2026-11-24', days: [99, null, 100] },
      '2026-11-26T03:00:00.000Z',
    );
    expect(days).toHaveLength(90);
    expect(days.at(-1)).toEqual({
      day: '2026-11-26',
      percent: 100,
      label: '2026-11-26: 100.00 % uptime',
    });
    expect(days.at(-2)).toMatchObject({
      day: '2026-11-25',
      percent: null,
      label: '2026-11-25: no data',
    });
    expect(days.at(-3)).toMatchObject({ day: '2026-11-24', percent: 99 });
    expect(days[0]).toMatchObject({ day: '2026-08-29', percent: null });
    expect(mean).toBe(99.5);
  });

  it('has no mean and only empty days when nothing was measured', () => {
    const { days, mean } = uptimeDays({ firstDay: null, days: [] }, '2026-11-26T03:00:00.000Z');
    expect(days.every((day) => day.percent === null)).toBe(true);
    expect(mean).toBeNull();
  });

  it('drops figures older than the 90 days shown', () => {
    const { days } = uptimeDays(
      { firstDay: '2026-08-28', days: [50, 100] },
      '2026-11-26T03:00:00.000Z',
    );
    expect(days[0]).toMatchObject({ day: '2026-08-29', percent: 100 });
    expect(days.some((day) => day.percent === 50)).toBe(false);
  });
});
