import { Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { orpc } from '../../api/client.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { Page } from '../../ui/page.tsx';

const ms = (value: number | null) => (value === null ? '–' : `${Math.round(value)} ms`);

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
}

/** How the check schedulers keep up over the last five minutes, asked again every 10 s. */
export function SchedulerPage() {
  const status = useQuery({
    ...orpc.healthcheck.getSchedulerStatus.queryOptions({ input: { windowMinutes: 5 } }),
    refetchInterval: 10_000,
  });
  const data = status.data;
  return (
    <Page title="Scheduler">
      <ErrorAlert error={status.error} />
      {data && (
        <>
          <Group gap="xl" wrap="wrap">
            <Figure label="Due backlog" value={String(data.dueBacklog)} />
            <Figure label="Oldest due" value={formatTime(data.oldestDueAt, 'none')} />
            <Figure label="Runs per second" value={data.runsPerSecond.toFixed(2)} />
            <Figure label="Lag p50" value={ms(data.lagMs.p50)} />
            <Figure label="Lag p99" value={ms(data.lagMs.p99)} />
            <Figure label="Connection wait p99" value={ms(data.queueWaitMs.p99)} />
            <Figure label="Late starts" value={String(data.lateStarts)} />
          </Group>
          <Text size="sm" c="dimmed">
            Over the last {Math.round(data.windowSeconds / 60)} minutes, as of {formatTime(data.at)}
            . Connection wait: how long runs waited for a connection to their target (scheduler
            pressure, not counted against any check&apos;s timeout). Late starts: runs given back
            because they could not start in time (retried, never counted as failures).
          </Text>
          {data.processes.length === 0 ? (
            <Text c="dimmed">No process ran checks in this window.</Text>
          ) : (
            <DataTable
              minWidth={500}
              // Focusable so the keyboard can scroll it sideways (it holds nothing focusable).
              scroll={{ type: 'native', tabIndex: 0, role: 'region', 'aria-label': 'Processes' }}
              columns={[
                'Process',
                'Runs',
                'Runs/s',
                'Lag p50',
                'Lag p99',
                'Connection wait p99',
                'Late starts',
                'Last run',
              ]}
            >
              {data.processes.map((process) => (
                <Table.Tr key={process.processId}>
                  <Table.Td>{process.processId}</Table.Td>
                  <Table.Td>{process.runs}</Table.Td>
                  <Table.Td>{process.runsPerSecond.toFixed(2)}</Table.Td>
                  <Table.Td>{ms(process.lagMs.p50)}</Table.Td>
                  <Table.Td>{ms(process.lagMs.p99)}</Table.Td>
                  <Table.Td>{ms(process.queueWaitMs.p99)}</Table.Td>
                  <Table.Td>{process.lateStarts}</Table.Td>
                  <Table.Td>{formatTime(process.lastRunAt, 'none in window')}</Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
          )}
        </>
      )}
    </Page>
  );
}
