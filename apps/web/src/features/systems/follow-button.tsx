import { Button, Group } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';

/**
 * Follow a system: a subscription of the signed-in person to it, hearing its health changes,
 * incidents and maintenance (the subscription's defaults) in the inbox and through their
 * channels. Unfollow deletes that subscription. Hidden from those who may not subscribe.
 */
export function FollowButton({ systemId, systemName }: { systemId: string; systemName: string }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const mayFollow = mayCall(me.data, contracts.notification.createSubscription);
  const mine = useQuery({
    ...orpc.notification.getMySubscriptions.queryOptions({ input: { systemId, limit: 1 } }),
    enabled: mayFollow,
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: orpc.notification.getMySubscriptions.key() });
  const follow = useMutation(
    orpc.notification.createSubscription.mutationOptions({ onSuccess: refresh }),
  );
  const unfollow = useMutation(
    orpc.notification.deleteSubscription.mutationOptions({ onSuccess: refresh }),
  );
  if (!mayFollow || !mine.data) return null;
  const subscription = mine.data.subscriptions[0];
  return (
    <Group gap="xs">
      <ErrorAlert error={follow.error ?? unfollow.error} />
      {subscription ? (
        <Button
          variant="default"
          loading={unfollow.isPending}
          onClick={() => unfollow.mutate({ id: subscription.id })}
          aria-label={`Unfollow ${systemName}`}
        >
          Unfollow
        </Button>
      ) : (
        <Button
          variant="default"
          loading={follow.isPending}
          onClick={() => follow.mutate({ systemId })}
          aria-label={`Follow ${systemName}`}
          title="Hear of its health changes, incidents and maintenance"
        >
          Follow
        </Button>
      )}
    </Group>
  );
}
