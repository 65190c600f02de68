import { Anchor, Badge, Group, Text, Timeline, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { Page } from '../../ui/page.tsx';
import { severityColor } from './incident-options.ts';
import { IncidentUpdateForm } from './incident-update-form.tsx';
import { Loading } from '../../ui/loading.tsx';

export function IncidentPage() {
  const { id = '' } = useParams();
  const me = useMe();
  const incident = useQuery({
    ...orpc.incident.getIncident.queryOptions({ input: { id } }),
    refetchInterval: 10_000,
  });
  const systems = useQuery({
    ...orpc.catalog.getSystems.queryOptions({
      input: { ids: incident.data?.systemIds ?? [], limit: 100 },
    }),
    enabled: (incident.data?.systemIds.length ?? 0) > 0,
  });
  if (incident.error) return <ErrorAlert error={incident.error} />;
  if (!incident.data) return <Loading label="Loading incident" />;
  const data = incident.data;
  return (
    <Page title={data.title}>
      <Group gap="xs">
        <Badge color={severityColor[data.severity]} variant="light" c="var(--mantine-color-text)">
          {data.severity}
        </Badge>
        <Badge variant="light" c="var(--mantine-color-text)" data-testid="incident-status">
          {data.status}
        </Badge>
        <Text c="dimmed" size="sm">
          opened {formatTime(data.createdAt)}
          {data.resolvedAt && `, resolved ${formatTime(data.resolvedAt)}`}
        </Text>
      </Group>
      {data.description && <Text>{data.description}</Text>}
      {(systems.data?.systems.length ?? 0) > 0 && (
        <Group gap="xs">
          <Text>Affected:</Text>
          {systems.data?.systems.map((system) => (
            <Anchor key={system.id} component={Link} to={`/systems/${system.id}`}>
              {system.name}
            </Anchor>
          ))}
        </Group>
      )}
      {mayCall(me.data, contracts.incident.updateIncident) && (
        <IncidentUpdateForm key={data.status} id={data.id} status={data.status} />
      )}
      <section aria-labelledby="incident-timeline">
        <Title order={2} size="h3" id="incident-timeline" mb="sm">
          Timeline
        </Title>
        <Timeline bulletSize={14} lineWidth={2}>
          {[...data.timeline].reverse().map((entry) => (
            <Timeline.Item key={entry.id} title={entry.status}>
              {entry.message && <Text size="sm">{entry.message}</Text>}
              <Text size="xs" c="dimmed">
                {formatTime(entry.createdAt)}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      </section>
    </Page>
  );
}
