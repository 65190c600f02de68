import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { chartRanges, loadChartPoints, type ChartRange } from './chart-range.ts';

const rangeLabels: Record<ChartRange, string> = {
  '1h': 'last hour, each run',
  '24h': 'last 24 hours, hourly means',
  '7d': 'last 7 days, hourly means',
  '30d': 'last 30 days, daily means',
};

/** A check's response times over a range the person picks, oldest on the left. */
export function ResponseTimeChart({
  healthCheckId,
  name,
}: {
  healthCheckId: string;
  name: string;
}) {
  const [range, setRange] = useState<ChartRange>('1h');
  const points = useQuery({
    queryKey: ['response-times', healthCheckId, range],
    queryFn: () => loadChartPoints(api, healthCheckId, range, new Date()),
    refetchInterval: 10_000,
  });
  const data = (points.data ?? []).map((point) => ({
    time: formatTime(point.at),
    'Response time (ms)': point.latencyMs,
  }));
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label={`Range of the ${name} chart`}
        size="xs"
        value={range}
        onChange={(value) => setRange(value as ChartRange)}
        data={[...chartRanges]}
        style={{ alignSelf: 'flex-start' }}
      />
      <ErrorAlert error={points.error} />
      {points.isSuccess && data.length === 0 ? (
        <Text c="dimmed">No results in this range.</Text>
      ) : (
        <div
          role="img"
          aria-label={`Response times of ${name}, ${rangeLabels[range]}: ${data.length} points`}
          data-range={range}
          data-points={data.length}
        >
          <LineChart
            h={180}
            data={data}
            dataKey="time"
            series={[{ name: 'Response time (ms)', color: 'blue.6' }]}
            curveType="linear"
            withDots={data.length < 40}
            data-testid="response-time-chart"
          />
        </div>
      )}
    </Stack>
  );
}
