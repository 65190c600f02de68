import { Group, Tooltip } from '@mantine/core';

export interface UptimeDay {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Percent passing, or null for a day without data. */
  percent: number | null;
  /** What the bar's tooltip says about the day. */
  label: string;
}

/** Red below 95 %, yellow below 99.9 %, else green; a muted grey (darker in dark mode) for a day without runs. */
function barColor(uptimePercent: number | null): string {
  if (uptimePercent === null) return 'var(--mantine-color-default-border)';
  if (uptimePercent < 95) return 'var(--mantine-color-red-7)';
  if (uptimePercent < 99.9) return 'var(--mantine-color-yellow-6)';
  return 'var(--mantine-color-green-7)';
}

/**
 * One bar per day, oldest first, as a single image with `label` as its name. The bars share the
 * width with a 1 px gap and no minimum, so 90 of them fit a 375 px screen inside a card's padding.
 */
export function UptimeBars({ days, label }: { days: UptimeDay[]; label: string }) {
  return (
    <Group
      gap={1}
      wrap="nowrap"
      role="img"
      data-testid="daily-uptime"
      aria-label={label}
      style={{ overflow: 'hidden' }}
    >
      {days.map(({ day, percent, label: dayLabel }) => (
        <Tooltip key={day} label={dayLabel}>
          <div
            data-day={day}
            data-uptime={percent ?? ''}
            style={{
              flex: '1 1 0',
              minWidth: 0,
              height: 24,
              borderRadius: 1,
              background: barColor(percent),
            }}
          />
        </Tooltip>
      ))}
    </Group>
  );
}

const DAY_MS = 86_400_000;

/** The `count` UTC days ending today, oldest first, as `YYYY-MM-DD`. */
export function lastDays(count: number, now = Date.now()): string[] {
  return Array.from({ length: count }, (_, index) =>
    new Date(now - (count - 1 - index) * DAY_MS).toISOString().slice(0, 10),
  );
}
