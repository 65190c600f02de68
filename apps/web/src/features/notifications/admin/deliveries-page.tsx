import { Badge, Group, Select, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../../api/client.ts';
import { ErrorAlert } from '../../../ui/error-alert.tsx';
import { formatTime } from '../../../ui/format-time.ts';
import { Page } from '../../../ui/page.tsx';
import { useStrategies } from './use-strategies.ts';
import { useRecipients } from './use-recipients.ts';
import { DataTable } from '../../../ui/data-table.tsx';
import { LoadMore } from '../../../ui/load-more.tsx';
import { QueryBody } from '../../../ui/query-body.tsx';
import { cursorPages } from '../../../api/cursor-pages.ts';

const statuses = ['pending', 'sent', 'failed', 'skipped'] as const;
type Status = (typeof statuses)[number];
const statusColor = { pending: 'gray.7', sent: 'teal.9', failed: 'red.9', skipped: 'orange.4' };

/** The delivery log, newest first, filtered by channel and status, a page at a time. */
export function DeliveriesPage() {
  const [strategyId, setStrategyId] = useState<string | null>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const strategies = useStrategies();
  const recipientOf = useRecipients();
  const deliveries = useInfiniteQuery(
    orpc.notification.getDeliveries.infiniteOptions(
      cursorPages({ limit: 50, ...(strategyId && { strategyId }), ...(status && { status }) }),
    ),
  );
  const names = new Map(
    (strategies.data?.strategies ?? []).map((strategy) => [
      strategy.strategyId,
      strategy.displayName,
    ]),
  );
  const rows = deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [];

  return (
    <Page title="Delivery log">
      <Group gap="sm" wrap="wrap">
        <Select
          label="Channel"
          placeholder="All channels"
          clearable
          value={strategyId}
          onChange={setStrategyId}
          data={[...names].map(([value, label]) => ({ value, label }))}
        />
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          value={status}
          onChange={(value) => setStatus(value as Status | null)}
          data={[...statuses]}
        />
      </Group>
      <ErrorAlert error={deliveries.error} />
      <QueryBody
        pending={deliveries.isPending}
        loadingLabel="Loading deliveries"
        isEmpty={rows.length === 0}
        empty={<Text>No deliveries match.</Text>}
      >
        <DataTable
          minWidth={760}
          scroll={{
            type: 'native',
            tabIndex: 0,
            role: 'region',
            'aria-label': 'Deliveries, scrolls sideways',
          }}
          striped
          verticalSpacing="sm"
          data-testid="deliveries"
          columns={['Created', 'Channel', 'Status', 'Attempts', 'Recipient', 'Why']}
        >
          {rows.map((delivery) => (
            <Table.Tr key={delivery.id}>
              <Table.Td>{formatTime(delivery.createdAt)}</Table.Td>
              <Table.Td>{names.get(delivery.strategyId) ?? delivery.strategyId}</Table.Td>
              <Table.Td>
                <Badge
                  color={statusColor[delivery.status]}
                  variant="filled"
                  autoContrast
                  data-delivery-status={delivery.status}
                  // A badge shrinks with its column and cuts its word ("PENDI…"): never here.
                  miw="max-content"
                >
                  {delivery.status}
                </Badge>
              </Table.Td>
              <Table.Td>
                {delivery.attempts} of {delivery.maxAttempts}
              </Table.Td>
              <Table.Td data-testid="recipient">
                {recipientOf(delivery.userId) ?? (
                  <Text size="sm" ff="monospace">
                    {delivery.userId}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {delivery.lastError ?? delivery.skipReason ?? ''}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      </QueryBody>
      <LoadMore query={deliveries} />
    </Page>
  );
}
