import type { UptimeDay } from '../../ui/uptime-bars.tsx';
import { lastDays } from '../../ui/uptime-bars.tsx';
import type { PublicItem } from './fetch-public-page.ts';

export const UPTIME_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * The answer's compact uptime (one figure a day from `firstDay`) as the 90 days ending on the
 * day the answer was made, with the mean over the days that have a figure.
 */
export function uptimeDays(
  uptime: PublicItem['uptime'],
  generatedAt: string,
): { days: UptimeDay[]; mean: number | null } {
  const byDay = new Map<string, number | null>();
  if (uptime.firstDay) {
    const first = Date.parse(`${uptime.firstDay}T00:00:00Z`);
    uptime.days.forEach((percent, index) => {
      byDay.set(new Date(first + index * DAY_MS).toISOString().slice(0, 10), percent);
    });
  }
  const days = lastDays(UPTIME_DAYS, Date.parse(generatedAt)).map((day) => {
    const percent = byDay.get(day) ?? null;
    return {
      day,
      percent,
      label: percent === null ? `${day}: no data` : `${day}: ${percent.toFixed(2)} % uptime`,
    };
  });
  const measured = days.flatMap((day) => (day.percent === null ? [] : [day.percent]));
  const mean =
    measured.length === 0
      ? null
      : measured.reduce((sum, value) => sum + value, 0) / measured.length;
  return { days, mean };
}
