import { Paper, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';

/** Whether people may create their own accounts; changeable by whom the server lets. */
export function RegistrationSwitch() {
  const me = useMe();
  const mayChange = mayCall(me.data, contracts.auth.updateRegistrationStatus);
  const queryClient = useQueryClient();
  const status = useQuery(orpc.auth.getRegistrationStatus.queryOptions({ input: {} }));
  const update = useMutation(
    orpc.auth.updateRegistrationStatus.mutationOptions({
      onSuccess: (answer) =>
        queryClient.setQueryData(orpc.auth.getRegistrationStatus.queryKey({ input: {} }), answer),
    }),
  );
  const allowed = update.isPending
    ? update.variables.allowRegistration
    : (status.data?.allowRegistration ?? false);
  return (
    <Paper withBorder p="md">
      <Switch
        label="Allow sign-up"
        description="When on, people may create their own account on the sign-up page."
        checked={allowed}
        disabled={!mayChange || status.isPending || update.isPending}
        onChange={(event) => update.mutate({ allowRegistration: event.currentTarget.checked })}
      />
      {!mayChange && (
        <Text size="sm" c="dimmed" mt="xs">
          Only someone who may manage users can change this.
        </Text>
      )}
      <ErrorAlert error={status.error ?? update.error} />
    </Paper>
  );
}
