import { Anchor, Table, Text } from '@mantine/core';
import { DataTable } from '../../ui/data-table.tsx';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { Page } from '../../ui/page.tsx';
import { ScheduleWindow } from './schedule-window.tsx';
import { windowPhase } from './window-phase.ts';
import { LightBadge } from '../../ui/light-badge.tsx';

const phaseColor = { active: 'blue', upcoming: 'gray', past: 'dark' } as const;

export function MaintenancePage() {
  const me = useMe();
  const windows = useQuery({
    ...orpc.maintenance.getWindows.queryOptions({ input: { includePast: true, limit: 500 } }),
    refetchInterval: 30_000,
  });
  const rows = windows.data?.windows ?? [];
  const now = new Date();
  return (
    <Page
      title="Maintenance"
      actions={mayCall(me.data, contracts.maintenance.scheduleWindow) && <ScheduleWindow />}
    >
      <ErrorAlert error={windows.error} />
      {rows.length === 0 ? (
        <Text c="dimmed">{windows.isPending ? 'Loading…' : 'No maintenance windows.'}</Text>
      ) : (
        <DataTable minWidth={500} columns={['Title', 'When', 'Starts', 'Ends']}>
          {rows.map((window) => {
            const phase = windowPhase(window, now);
            return (
              <Table.Tr key={window.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/maintenance/${window.id}`}>
                    {window.title}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <LightBadge color={phaseColor[phase]}>{phase}</LightBadge>
                </Table.Td>
                <Table.Td>{formatTime(window.startAt)}</Table.Td>
                <Table.Td>{formatTime(window.endAt)}</Table.Td>
              </Table.Tr>
            );
          })}
        </DataTable>
      )}
    </Page>
  );
}
