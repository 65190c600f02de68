import { Anchor, Badge, Switch, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { Page } from '../../ui/page.tsx';
import { CreateIncident } from './create-incident.tsx';
import { severityColor } from './incident-options.ts';

export function IncidentsPage() {
  const me = useMe();
  const [includeResolved, setIncludeResolved] = useState(false);
  const incidents = useQuery({
    ...orpc.incident.listIncidents.queryOptions({ input: { includeResolved, limit: 200 } }),
    refetchInterval: 10_000,
  });
  const rows = incidents.data?.incidents ?? [];
  return (
    <Page
      title="Incidents"
      actions={mayCall(me.data, contracts.incident.createIncident) && <CreateIncident />}
    >
      <Switch
        label="Show resolved incidents"
        checked={includeResolved}
        onChange={(event) => setIncludeResolved(event.currentTarget.checked)}
      />
      <ErrorAlert error={incidents.error} />
      {rows.length === 0 ? (
        <Text c="dimmed">{incidents.isPending ? 'Loading…' : 'No incidents.'}</Text>
      ) : (
        <Table.ScrollContainer minWidth={500}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Title</Table.Th>
                <Table.Th>Severity</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Opened</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((incident) => (
                <Table.Tr key={incident.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/incidents/${incident.id}`}>
                      {incident.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      color={severityColor[incident.severity]}
                      variant="light"
                      c="var(--mantine-color-text)"
                    >
                      {incident.severity}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{incident.status}</Table.Td>
                  <Table.Td>{formatTime(incident.createdAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {incidents.data?.nextCursor && (
        <Text c="dimmed" size="sm">
          Showing the newest {rows.length}; older incidents are not shown.
        </Text>
      )}
    </Page>
  );
}
