import { Group, Stack, Text } from '@mantine/core';

export interface UptimeFigure {
  window: string;
  uptimePercent: number | null;
  meanLatencyMs: number | null;
}

/** Uptime per window (24h, 7d, 30d, 90d) as numbers; "no data" when nothing ran in it. */
export function UptimeFigures({ windows }: { windows: readonly UptimeFigure[] }) {
  return (
    <Group gap="xl" wrap="wrap">
      {windows.map((figure) => (
        <Stack key={figure.window} gap={0}>
          <Text size="xs" c="dimmed">
            Uptime {figure.window}
          </Text>
          <Text fw={600}>
            {figure.uptimePercent === null ? 'no data' : `${figure.uptimePercent.toFixed(2)} %`}
          </Text>
        </Stack>
      ))}
    </Group>
  );
}
