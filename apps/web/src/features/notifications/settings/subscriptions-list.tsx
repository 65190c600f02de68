import { Anchor, Button, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { orpc } from '../../../api/client.ts';
import { ConfirmDialog } from '../../../ui/confirm-dialog.tsx';
import { ErrorAlert } from '../../../ui/error-alert.tsx';
import { formatTime } from '../../../ui/format-time.ts';
import { DataTable } from '../../../ui/data-table.tsx';
import { LoadMore } from '../../../ui/load-more.tsx';
import { QueryBody } from '../../../ui/query-body.tsx';
import { cursorPages } from '../../../api/cursor-pages.ts';

const targetOf = (subscription: { systemId: string | null; groupId: string | null }) =>
  subscription.systemId
    ? `System ${subscription.systemId}`
    : subscription.groupId
      ? `Group ${subscription.groupId}`
      : 'Everything you can read';

/** A subscribed system by name, linked to its page (its id while the name loads). */
function SystemLink({ id }: { id: string }) {
  const system = useQuery(orpc.catalog.getSystem.queryOptions({ input: { id } }));
  return (
    <Anchor component={Link} to={`/systems/${id}`}>
      System {system.data?.name ?? id}
    </Anchor>
  );
}

/** A subscribed group by name (its id while the name loads). */
function GroupName({ id }: { id: string }) {
  const group = useQuery(orpc.catalog.getGroup.queryOptions({ input: { id } }));
  return <>Group {group.data?.name ?? id}</>;
}

/** What the person is subscribed to, each with a delete that asks first. */
export function SubscriptionsList() {
  const queryClient = useQueryClient();
  const subscriptions = useInfiniteQuery(
    orpc.notification.getMySubscriptions.infiniteOptions(cursorPages({ limit: 50 })),
  );
  const [deleting, setDeleting] = useState<string | undefined>();
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
            <Table.Tr key={subscription.id}>
              <Table.Td>
                {subscription.systemId ? (
                  <SystemLink id={subscription.systemId} />
                ) : subscription.groupId ? (
                  <GroupName id={subscription.groupId} />
                ) : (
                  targetOf(subscription)
                )}
              </Table.Td>
              <Table.Td>{subscription.events.join(', ')}</Table.Td>
              <Table.Td>{formatTime(subscription.createdAt)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => setDeleting(subscription.id)}
                  aria-label={`Delete the subscription to ${targetOf(subscription)}`}
                >
                  Delete
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      </QueryBody>
      <LoadMore query={subscriptions} />
      <ConfirmDialog
        opened={deleting !== undefined}
        title="End this subscription?"
        confirmLabel="End subscription"
        loading={remove.isPending}
        onClose={() => setDeleting(undefined)}
        onConfirm={() => deleting && remove.mutate({ id: deleting })}
      >
        You will no longer hear about it.
      </ConfirmDialog>
    </section>
  );
}
