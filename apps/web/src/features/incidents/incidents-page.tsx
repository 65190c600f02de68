import { Anchor, Switch, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { LightBadge } from '../../ui/light-badge.tsx';
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
        <DataTable minWidth={500} columns={['Title', 'Severity', 'Status', 'Opened']}>
          {rows.map((incident) => (
            <Table.Tr key={incident.id}>
              <Table.Td>
                <Anchor component={Link} to={`/incidents/${incident.id}`}>
                  {incident.title}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <LightBadge color={severityColor[incident.severity]}>
                  {incident.severity}
                </LightBadge>
              </Table.Td>
              <Table.Td>{incident.status}</Table.Td>
              <Table.Td>{formatTime(incident.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {incidents.data?.nextCursor && (
        <Text c="dimmed" size="sm">
          Showing the newest {rows.length}; older incidents are not shown.
        </Text>
      )}
    </Page>
  );
}
