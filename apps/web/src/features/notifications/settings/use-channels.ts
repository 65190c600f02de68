import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { orpc } from '../../../api/client.ts';

export function useMyChannels() {
  return useQuery(orpc.notification.getMyChannels.queryOptions({ input: {} }));
}

export function useUpdateMyChannel() {
  const queryClient = useQueryClient();
  return useMutation(
    orpc.notification.updateMyChannel.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: orpc.notification.getMyChannels.key() }),
    }),
  );
}
