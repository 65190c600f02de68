import { Code, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useState } from 'react';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { Page } from '../../ui/page.tsx';
import { toInstant } from '../../ui/to-instant.ts';
import { useActors, useAuditLog } from './use-audit.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { LoadMore } from '../../ui/load-more.tsx';
import { QueryBody } from '../../ui/query-body.tsx';

export function AuditPage() {
  const [action, setAction] = useState('');
  const [actorId, setActorId] = useState<string | null>(null);
  const [before, setBefore] = useState<string | null>(null);
  const { actors, nameOf } = useActors();
  const log = useAuditLog({
    ...(action.trim() && { action: action.trim() }),
    ...(actorId && { actorId }),
    ...(before && { before: toInstant(before) ?? undefined }),
  });
  const rows = log.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <Page title="Audit log">
      <Text c="dimmed">Who changed users, keys, roles, teams and access, newest first.</Text>
      <Group align="flex-end" wrap="wrap" role="search" aria-label="Filter the audit log">
        <TextInput
          label="Action"
          placeholder="e.g. user.created"
          value={action}
          onChange={(event) => setAction(event.currentTarget.value)}
        />
        {actors.length > 0 ? (
          <Select
            label="Actor"
            placeholder="Anyone"
            searchable
            clearable
            data={actors}
            value={actorId}
            onChange={setActorId}
          />
        ) : (
          <TextInput
            label="Actor id"
            placeholder="Anyone"
            value={actorId ?? ''}
            onChange={(event) => setActorId(event.currentTarget.value.trim() || null)}
          />
        )}
        <DateTimePicker
          label="Before"
          description="In your time zone"
          clearable
          value={before}
          onChange={setBefore}
        />
      </Group>
      <ErrorAlert error={log.error} />
      <QueryBody
        pending={log.isPending}
        loadingLabel="Loading the audit log"
        isEmpty={rows.length === 0}
        empty={<Text>No entries match.</Text>}
      >
        <DataTable
          minWidth={720}
          // No control inside to reach it by: the scrolling region itself takes the focus.
          scroll={{
            scrollAreaProps: {
              viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Audit entries' },
            },
          }}
          striped
          verticalSpacing="xs"
          columns={['When', 'Actor', 'Action', 'Target', 'Details']}
        >
          {rows.map((entry) => (
            <Table.Tr key={entry.id} data-testid="audit-entry">
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(entry.at)}</Table.Td>
              <Table.Td>
                {(entry.actor.id && nameOf(entry.actor.id)) ?? entry.actor.id ?? '—'}
                <Text size="xs" c="dimmed">
                  {entry.actor.kind}
                </Text>
              </Table.Td>
              <Table.Td>
                <Code>{entry.action}</Code>
              </Table.Td>
              <Table.Td>
                {entry.targetType}
                {entry.targetId && (
                  <Text size="xs" c="dimmed">
                    {nameOf(entry.targetId) ?? entry.targetId}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {Object.keys(entry.details).length > 0 && (
                  <Code block maw={360} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                    {JSON.stringify(entry.details)}
                  </Code>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      </QueryBody>
      <LoadMore query={log} />
    </Page>
  );
}
