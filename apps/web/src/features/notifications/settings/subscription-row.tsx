import { Anchor, Button, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { orpc } from '../../../api/client.ts';
import { formatTime } from '../../../ui/format-time.ts';

interface Subscription {
  id: string;
  systemId: string | null;
  groupId: string | null;
  events: string[];
  createdAt: string;
}

/** What a subscription is about, by name once the catalog answers (by id until then). */
function useTargetName({ systemId, groupId }: Subscription): string {
  const system = useQuery({
    ...orpc.catalog.getSystem.queryOptions({ input: { id: systemId ?? '' } }),
    enabled: systemId !== null,
  });
  const group = useQuery({
    ...orpc.catalog.getGroup.queryOptions({ input: { id: groupId ?? '' } }),
    enabled: groupId !== null,
  });
  if (systemId) return `System ${system.data?.name ?? systemId}`;
  if (groupId) return `Group ${group.data?.name ?? groupId}`;
  return 'Everything you can read';
}

export interface Deleting {
  id: string;
  target: string;
}

/** One subscription: what it is about (a system linked to its page), its events, a delete. */
export function SubscriptionRow({
  subscription,
  onDelete,
}: {
  subscription: Subscription;
  onDelete: (deleting: Deleting) => void;
}) {
  const target = useTargetName(subscription);
  return (
    <Table.Tr>
      <Table.Td>
        {subscription.systemId ? (
          <Anchor component={Link} to={`/systems/${subscription.systemId}`}>
            {target}
          </Anchor>
        ) : (
          target
        )}
      </Table.Td>
      <Table.Td>{subscription.events.join(', ')}</Table.Td>
      <Table.Td>{formatTime(subscription.createdAt)}</Table.Td>
      <Table.Td>
        <Button
          size="xs"
          variant="default"
          onClick={() => onDelete({ id: subscription.id, target })}
          aria-label={`Delete the subscription to ${target}`}
        >
          Delete
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
