import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { orpc } from '../../../api/client.ts';

export function useStrategies() {
  return useQuery(orpc.notification.getStrategies.queryOptions({ input: {} }));
}

export function useUpdateStrategy() {
  const queryClient = useQueryClient();
  return useMutation(
    orpc.notification.updateStrategy.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: orpc.notification.getStrategies.key() }),
    }),
  );
}
