import { Anchor, Group, List, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { orpc } from '../../api/client.ts';
import { formatTime } from '../../ui/format-time.ts';
import { LightBadge } from '../../ui/light-badge.tsx';

/** The incidents that name this system, open and resolved. */
export function SystemIncidents({ systemId }: { systemId: string }) {
  const incidents = useQuery(
    orpc.incident.listIncidents.queryOptions({
      input: { systemId, includeResolved: true, limit: 20 },
    }),
  );
  const rows = incidents.data?.incidents ?? [];
  return (
    <section aria-labelledby="system-incidents">
      <Title order={2} size="h3" id="system-incidents" mb="xs">
        Incidents
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed">No incidents.</Text>
      ) : (
        <List>
          {rows.map((incident) => (
            <List.Item key={incident.id}>
              <Group gap="xs">
                <Anchor component={Link} to={`/incidents/${incident.id}`}>
                  {incident.title}
                </Anchor>
                <LightBadge>{incident.status}</LightBadge>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
    </section>
  );
}

/** The maintenance windows that cover this system, past ones included. */
export function SystemWindows({ systemId }: { systemId: string }) {
  const windows = useQuery(
    orpc.maintenance.getWindows.queryOptions({
      input: { systemId, includePast: true, limit: 20 },
    }),
  );
  const rows = windows.data?.windows ?? [];
  return (
    <section aria-labelledby="system-windows">
      <Title order={2} size="h3" id="system-windows" mb="xs">
        Maintenance windows
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed">No maintenance windows.</Text>
      ) : (
        <List>
          {rows.map((window) => (
            <List.Item key={window.id}>
              <Anchor component={Link} to={`/maintenance/${window.id}`}>
                {window.title}
              </Anchor>{' '}
              <Text span c="dimmed" size="sm">
                {formatTime(window.startAt)} – {formatTime(window.endAt)}
              </Text>
            </List.Item>
          ))}
        </List>
      )}
    </section>
  );
}
