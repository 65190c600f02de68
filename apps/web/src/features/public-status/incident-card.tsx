import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { formatTime } from '../../ui/format-time.ts';
import type { PublicIncident } from './fetch-public-page.ts';
import { LightBadge } from '../../ui/light-badge.tsx';

const severityColor = { minor: 'yellow', major: 'orange', critical: 'red' } as const;

/** An incident with its public timeline, newest update first. */
export function IncidentCard({ incident }: { incident: PublicIncident }) {
  const updates = [...incident.updates].reverse();
  return (
    <Paper withBorder p="md" component="article" data-incident={incident.ref}>
      <Group justify="space-between" align="flex-start" gap="xs" mb="xs">
        <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
          {incident.title}
        </Title>
        <Group gap={6}>
          <LightBadge color={severityColor[incident.severity]}>{incident.severity}</LightBadge>
          <LightBadge color="gray">{incident.status}</LightBadge>
        </Group>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Started {formatTime(incident.startedAt)}
        {incident.resolvedAt && ` · resolved ${formatTime(incident.resolvedAt)}`}
      </Text>
      {updates.length > 0 && (
        <Stack
          component="ol"
          gap="sm"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label="Updates"
        >
          {updates.map((update, index) => (
            <li key={`${update.at}-${index}`}>
              <Text size="sm">
                <Text span fw={700} tt="capitalize">
                  {update.status}
                </Text>{' '}
                <Text span c="dimmed" size="xs">
                  {formatTime(update.at)}
                </Text>
              </Text>
              {update.message && (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {update.message}
                </Text>
              )}
            </li>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
