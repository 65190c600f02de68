import { Group, Paper, Text, Title } from '@mantine/core';
import { formatTime } from '../../ui/format-time.ts';
import type { PublicPage } from './fetch-public-page.ts';
import { LightBadge } from '../../ui/light-badge.tsx';

/** A maintenance window, in progress or scheduled, with its times in the visitor's time zone. */
export function MaintenanceCard({ window }: { window: PublicPage['maintenance'][number] }) {
  return (
    <Paper withBorder p="md" component="article" data-maintenance={window.ref}>
      <Group justify="space-between" align="flex-start" gap="xs" mb="xs">
        <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
          {window.title}
        </Title>
        <LightBadge color={window.active ? 'blue' : 'gray'}>
          {window.active ? 'In progress' : 'Scheduled'}
        </LightBadge>
      </Group>
      <Text size="sm" c="dimmed">
        {formatTime(window.startAt)} – {formatTime(window.endAt)}
      </Text>
      {window.description && (
        <Text size="sm" mt="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {window.description}
        </Text>
      )}
    </Paper>
  );
}
