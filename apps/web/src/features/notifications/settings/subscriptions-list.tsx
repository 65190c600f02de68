import { Text, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../../api/client.ts';
import { ConfirmDialog } from '../../../ui/confirm-dialog.tsx';
import { ErrorAlert } from '../../../ui/error-alert.tsx';
import { DataTable } from '../../../ui/data-table.tsx';
import { LoadMore } from '../../../ui/load-more.tsx';
import { QueryBody } from '../../../ui/query-body.tsx';
import { cursorPages } from '../../../api/cursor-pages.ts';
import { SubscriptionRow, type Deleting } from './subscription-row.tsx';

/** What the person is subscribed to, each with a delete that asks first. */
export function SubscriptionsList() {
  const queryClient = useQueryClient();
  const subscriptions = useInfiniteQuery(
    orpc.notification.getMySubscriptions.infiniteOptions(cursorPages({ limit: 50 })),
  );
  const [deleting, setDeleting] = useState<Deleting | undefined>();
  const remove = useMutation(
    orpc.notification.deleteSubscription.mutationOptions({
      onSuccess: async () => {
        setDeleting(undefined);
        await queryClient.invalidateQueries({
          queryKey: orpc.notification.getMySubscriptions.key(),
        });
      },
    }),
  );
  const rows = subscriptions.data?.pages.flatMap((page) => page.subscriptions) ?? [];
  return (
    <section aria-labelledby="subscriptions-title">
      <Title order={2} size="h3" id="subscriptions-title" mb="sm">
        My subscriptions
      </Title>
      <ErrorAlert error={subscriptions.error ?? remove.error} />
      <QueryBody
        pending={subscriptions.isPending}
        loadingLabel="Loading subscriptions"
        minHeight={80}
        isEmpty={rows.length === 0}
        empty={<Text c="dimmed">You are not subscribed to anything.</Text>}
      >
        <DataTable
          minWidth={520}
          scroll={{
            type: 'native',
            tabIndex: 0,
            role: 'region',
            'aria-label': 'Subscriptions, scrolls sideways',
          }}
          verticalSpacing="sm"
          columns={['About', 'Events', 'Since', { hidden: 'Actions' }]}
        >
          {rows.map((subscription) => (
            <SubscriptionRow
              key={subscription.id}
              subscription={subscription}
              onDelete={setDeleting}
            />
          ))}
        </DataTable>
      </QueryBody>
      <LoadMore query={subscriptions} />
      <ConfirmDialog
        opened={deleting !== undefined}
        title={deleting ? `End the subscription to ${deleting.target}?` : 'End this subscription?'}
        confirmLabel="End subscription"
        loading={remove.isPending}
        onClose={() => setDeleting(undefined)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      >
        You will no longer hear about it.
      </ConfirmDialog>
    </section>
  );
}
