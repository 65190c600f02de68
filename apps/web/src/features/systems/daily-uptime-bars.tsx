import { Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { orpc } from '../../api/client.ts';
import { lastDays, UptimeBars } from '../../ui/uptime-bars.tsx';

const DAYS = 90;

/** One bar per UTC day over the last 90 days from the daily rollups, coloured by that day's uptime. */
export function DailyUptimeBars({ healthCheckId, name }: { healthCheckId: string; name: string }) {
  const rollups = useQuery({
    ...orpc.healthcheck.getRollups.queryOptions({ input: { healthCheckId, window: '90d' } }),
    refetchInterval: 60_000,
  });
  if (!rollups.data) return null;
  const byDay = new Map(
    rollups.data.buckets.map((bucket) => [bucket.bucketStart.slice(0, 10), bucket]),
  );
  const measured = rollups.data.buckets.filter((bucket) => bucket.uptimePercent !== null);
  const worst = measured.reduce<number | null>(
    (low, bucket) => Math.min(low ?? 100, bucket.uptimePercent ?? 100),
    null,
  );
  const days = lastDays(DAYS).map((day) => {
    const bucket = byDay.get(day);
    const percent = bucket?.uptimePercent ?? null;
    const label =
      bucket === undefined || percent === null
        ? `${day}: no data`
        : `${day}: ${percent.toFixed(2)} % (${bucket.failures} of ${bucket.runs} runs failed)`;
    return { day, percent, label };
  });
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        Daily uptime, last {DAYS} days (UTC)
      </Text>
      <UptimeBars
        days={days}
        label={`Daily uptime of ${name}: ${measured.length} of ${DAYS} days measured${
          worst === null ? '' : `, lowest ${worst.toFixed(2)} %`
        }`}
      />
    </Stack>
  );
}
