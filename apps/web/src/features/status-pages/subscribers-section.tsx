import { Button, SegmentedControl, Table } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiClient } from '../../api/client.ts';
import { api, orpc } from '../../api/client.ts';
import { cursorPages } from '../../api/cursor-pages.ts';
import { ConfirmDelete } from '../../ui/confirm-delete.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { ListSection } from '../../ui/list-section.tsx';
import { LoadMore } from '../../ui/load-more.tsx';
import { QueryBody } from '../../ui/query-body.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { LightBadge } from '../../ui/light-badge.tsx';

type Subscriber = Awaited<
  ReturnType<ApiClient['statuspage']['getSubscribers']>
>['subscribers'][number];
type Filter = 'all' | Subscriber['status'];

const emptyText: Record<Filter, string> = {
  all: 'Nobody has subscribed to this page yet.',
  pending: 'No subscriber is waiting to confirm.',
  confirmed: 'No confirmed subscribers.',
};

/**
 * The page's e-mail subscribers (personal data: shown only to those who manage the page), a
 * hundred at a time, filtered by status, each removable.
 */
export function SubscribersSection({ pageId }: { pageId: string }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [removing, setRemoving] = useState<Subscriber>();
  const subscribers = useInfiniteQuery(
    orpc.statuspage.getSubscribers.infiniteOptions(
      cursorPages({ pageId, limit: 100, ...(filter !== 'all' && { status: filter }) }),
    ),
  );
  const rows = subscribers.data?.pages.flatMap((page) => page.subscribers) ?? [];
  return (
    <ListSection
      id="subscribers"
      title="E-mail subscribers"
      error={subscribers.error}
      isEmpty={!subscribers.isPending && rows.length === 0}
      empty={emptyText[filter]}
      action={
        <SegmentedControl
          aria-label="Show subscribers"
          value={filter}
          onChange={(value) => setFilter(value as Filter)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'pending', label: 'Pending' },
            { value: 'confirmed', label: 'Confirmed' },
          ]}
        />
      }
    >
      <QueryBody pending={subscribers.isPending} loadingLabel="Loading subscribers" minHeight={80}>
        <DataTable
          minWidth={520}
          verticalSpacing="xs"
          aria-label="E-mail subscribers"
          columns={['Address', 'Status', 'Since', { hidden: 'Actions' }]}
        >
          {rows.map((subscriber) => (
            <Table.Tr key={subscriber.id} data-subscriber={subscriber.email}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{subscriber.email}</Table.Td>
              <Table.Td>
                <LightBadge
                  color={subscriber.status === 'confirmed' ? 'green' : 'gray'}
                  data-status={subscriber.status}
                >
                  {subscriber.status === 'confirmed' ? 'Confirmed' : 'Pending'}
                </LightBadge>
              </Table.Td>
              <Table.Td>{formatTime(subscriber.confirmedAt ?? subscriber.createdAt)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  aria-label={`Remove ${subscriber.email}`}
                  onClick={() => setRemoving(subscriber)}
                >
                  Remove
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      </QueryBody>
      <LoadMore query={subscribers} />
      {removing && (
        <ConfirmDelete
          title="Remove subscriber"
          onClose={() => setRemoving(undefined)}
          remove={() => api.statuspage.deleteSubscriber({ pageId, id: removing.id })}
        >
          Remove {removing.email}? Nothing more of this page is mailed to the address.
        </ConfirmDelete>
      )}
    </ListSection>
  );
}
