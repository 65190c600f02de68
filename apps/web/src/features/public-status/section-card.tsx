import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { UptimeBars } from '../../ui/uptime-bars.tsx';
import type { PublicItem, PublicPage } from './fetch-public-page.ts';
import { StatusBadge } from './status-badge.tsx';
import { UPTIME_DAYS, uptimeDays } from './uptime-days.ts';

function ItemRow({ item, generatedAt }: { item: PublicItem; generatedAt: string }) {
  const { days, mean } = uptimeDays(item.uptime, generatedAt);
  const uptime = mean === null ? 'No data' : `${mean.toFixed(2)} % uptime`;
  return (
    <Stack gap={6} component="li" data-item={item.name}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
          {item.name}
        </Text>
        <StatusBadge status={item.status} />
      </Group>
      <UptimeBars
        days={days}
        label={`Daily uptime of ${item.name} over the last ${UPTIME_DAYS} days: ${uptime}`}
      />
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {UPTIME_DAYS} days ago
        </Text>
        <Text size="xs" c="dimmed">
          {uptime}
        </Text>
        <Text size="xs" c="dimmed">
          Today
        </Text>
      </Group>
    </Stack>
  );
}

/** A section of the page: its title, then each system or group with its status and daily uptime. */
export function SectionCard({
  section,
  index,
  generatedAt,
}: {
  section: PublicPage['sections'][number];
  index: number;
  generatedAt: string;
}) {
  const headingId = `section-${index}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="sm">
        {section.title}
      </Title>
      {section.items.length === 0 ? (
        <Text c="dimmed">Nothing listed here yet.</Text>
      ) : (
        <Stack component="ul" gap="lg" m={0} p={0} style={{ listStyle: 'none' }}>
          {section.items.map((item, itemIndex) => (
            <ItemRow key={`${item.name}-${itemIndex}`} item={item} generatedAt={generatedAt} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
